import { PageHeader } from "../../ui/page-header.tsx";
import { Tabs } from "../../ui/tabs.tsx";
import { ConnectionsTab } from "../connections/connections-tab.tsx";
import { NotificationsTab } from "../notifications/notifications-tab.tsx";
import { ApiTokensTab } from "../tokens/api-tokens-tab.tsx";
import { MappingSettingsTab } from "./mapping-settings-tab.tsx";

/**
 * Settings (spec section 2): the Connections tab and the Mapping tab (quantity and price mapping),
 * then Notifications (issue #15) and API Tokens (issue #17), in ARCHITECTURE.md's order.
 */
export function SettingsScreen() {
  return (
    <>
      <PageHeader title="Settings" />
      <Tabs
        label="Settings"
        // Unsaved connection input survives a look at the Mapping tab.
        keepMounted
        tabs={[
          { id: "connections", label: "Connections", content: <ConnectionsTab /> },
          { id: "mapping", label: "Mapping", content: <MappingSettingsTab /> },
          { id: "notifications", label: "Notifications", content: <NotificationsTab /> },
          { id: "api-tokens", label: "API Tokens", content: <ApiTokensTab /> },
        ]}
      />
    </>
  );
}
