import { createFileRoute, redirect } from "@tanstack/react-router";

/** The Products parent entry only leads to its first child (the gate runs first, in `_app`). */
export const Route = createFileRoute("/_app/products/")({
  staticData: { access: "subscriber" },
  beforeLoad: () => {
    throw redirect({ to: "/products/shopify", replace: true });
  },
});
