import { PageHeader } from "../../ui/page-header.tsx";

/** Mapping Schedules (spec section 2, the full reading). The table and dialog are still to be built. */
export function MappingSchedulesScreen() {
  return <PageHeader title="Mapping Schedules" />;
}
