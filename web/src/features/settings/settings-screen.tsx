import { PageHeader } from "../../ui/page-header.tsx";

/** Settings (spec section 2): Connections and Mapping tabs are still to be built. */
export function SettingsScreen() {
  return <PageHeader title="Settings" />;
}
