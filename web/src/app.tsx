import { QueryClientProvider } from "@tanstack/react-query";
import { RouterProvider } from "@tanstack/react-router";
import { useEffect } from "react";
import { FullPageLoading } from "./features/auth/full-page-loading.tsx";
import { useAuth } from "./features/auth/use-auth.ts";
import { MirrorStatus } from "./features/pwa/mirror-status.tsx";
import { OfflineBanner } from "./features/pwa/offline-banner.tsx";
import { UpdatePrompt } from "./features/pwa/update-prompt.tsx";
import { ServicesProvider } from "./lib/services-context.tsx";
import type { AppRouter } from "./router.tsx";
import type { Services } from "./services.ts";
import { AppToaster } from "./ui/toast.tsx";

export function App({ services, router }: { services: Services; router: AppRouter }) {
  return (
    <QueryClientProvider client={services.queryClient}>
      <ServicesProvider services={services}>
        <SessionGate services={services} router={router} />
        <OfflineBanner />
        <MirrorStatus />
        <UpdatePrompt />
        <AppToaster />
      </ServicesProvider>
    </QueryClientProvider>
  );
}

/**
 * While a stored session is verified the full-page loading screen shows and the router waits, so
 * guards always decide on a settled session. The query cache is written to IndexedDB only after
 * that, so a stale cache is never saved over the one being restored.
 */
function SessionGate({ services, router }: { services: Services; router: AppRouter }) {
  const { status } = useAuth();
  const settled = status !== "restoring";
  useEffect(() => (settled ? services.persistCache() : undefined), [settled, services]);
  useEffect(() => (settled ? services.syncInBackground() : undefined), [settled, services]);
  if (!settled) return <FullPageLoading />;
  return <RouterProvider router={router} />;
}
