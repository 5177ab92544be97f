import { createFileRoute } from "@tanstack/react-router";
import { AcumaticaProductsScreen } from "../../../features/products/acumatica-products-screen.tsx";

export const Route = createFileRoute("/_app/products/acumatica")({
  staticData: { access: "subscriber" },
  component: AcumaticaProductsScreen,
});
