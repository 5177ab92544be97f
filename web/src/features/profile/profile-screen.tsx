import { PageHeader } from "../../ui/page-header.tsx";

/** Profile: a placeholder in the spec ('Coming soon....'). */
export function ProfileScreen() {
  return (
    <>
      <PageHeader title="Profile" />
      <p className="text-gray-700">Coming soon....</p>
    </>
  );
}
