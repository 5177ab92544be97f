import { Toaster } from "sonner";

export { toast } from "sonner";

/** The one toast outlet (sonner); call `toast.success(...)`, `toast.error(...)`, `toast.warning(...)`. */
export function AppToaster() {
  return <Toaster position="top-center" richColors closeButton duration={5_000} />;
}
