import type { Connections } from "@stockbridge/shared";
import { useServices } from "../../lib/services-context.tsx";
import { sessionKeys } from "../auth/queries.ts";
import { connectionKeys } from "./queries.ts";

/**
 * After a save or a test: the answer replaces the cached connection (spec section 4), the cached
 * connections are re-read after a failed test (it recorded `isVerified: false` and the error), and
 * the signed-in user is re-read so the dashboard checklist and the product screens see the change.
 */
export function useConnectionCache() {
  const { queryClient, auth } = useServices();
  return {
    replace(patch: Partial<Connections>): void {
      queryClient.setQueryData<Connections>(connectionKeys.detail(), (current) => ({
        acumaticaConnection: current?.acumaticaConnection ?? null,
        shopifyConnection: current?.shopifyConnection ?? null,
        ...patch,
      }));
    },
    reload(): void {
      void queryClient.invalidateQueries({ queryKey: connectionKeys.detail() });
    },
    async refreshUser(): Promise<void> {
      try {
        const user = await auth.refreshUser();
        // The dashboard reads the user from this query too; without this it would put back the old one.
        queryClient.setQueryData(sessionKeys.me(), { user });
      } catch {
        // The user is re-read on the next start or dashboard visit; the save itself succeeded.
      }
    },
  };
}
