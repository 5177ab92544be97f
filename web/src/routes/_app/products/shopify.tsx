import { createFileRoute } from "@tanstack/react-router";
import { ShopifyProductsScreen } from "../../../features/products/shopify-products-screen.tsx";

export const Route = createFileRoute("/_app/products/shopify")({
  staticData: { access: "subscriber" },
  component: ShopifyProductsScreen,
});
