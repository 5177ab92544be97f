import type { ReactNode } from "react";
import { BrandMark, BrandName } from "../../ui/brand.tsx";

/** The centred card around the sign-in and sign-up forms. */
export function AuthLayout({ children }: { children: ReactNode }) {
  return (
    <main id="main-content" className="flex min-h-screen flex-col items-center justify-center px-4 py-12">
      <div className="mb-6 flex items-center gap-2">
        <BrandMark size={40} />
        <BrandName />
      </div>
      <div className="w-full max-w-md rounded-lg bg-white p-8 shadow-sm ring-1 ring-gray-200">{children}</div>
    </main>
  );
}
