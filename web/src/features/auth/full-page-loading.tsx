import { Spinner } from "../../ui/spinner.tsx";

/** Shown while a stored session is being verified (spec section 2). */
export function FullPageLoading() {
  return (
    <div
      role="status"
      aria-live="polite"
      className="flex min-h-screen flex-col items-center justify-center gap-4 p-6 text-center"
    >
      <Spinner size="lg" className="text-accent-600" />
      <div>
        <p className="text-lg font-semibold text-gray-900">Loading</p>
        <p className="mt-1 text-sm text-gray-600">Please wait while we prepare your experience</p>
      </div>
    </div>
  );
}
