import { PageHeader } from "../../ui/page-header.tsx";
import { Tabs } from "../../ui/tabs.tsx";
import { ConnectionsTab } from "../connections/connections-tab.tsx";
import { MappingSettingsTab } from "./mapping-settings-tab.tsx";

/** Settings (spec section 2): the Connections tab and the Mapping tab (quantity and price mapping). */
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
        ]}
      />
    </>
  );
}
