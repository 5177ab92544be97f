import type { User } from "@stockbridge/shared";
import { hasSubscriptionAccess } from "../auth/guards.ts";

export type ChecklistPath = "/subscription" | "/settings" | "/products/shopify" | "/mapping";

export interface ChecklistItem {
  id: "subscribed" | "shopify" | "acumatica" | "products" | "mappings";
  title: string;
  description: string;
  done: boolean;
  to: ChecklistPath;
  /** The step's page needs a subscription the user does not have yet. */
  locked: boolean;
}

/** Counts read from the lists (`total`); undefined while unknown (not loaded, or not subscribed). */
export interface ChecklistCounts {
  shopifyProducts?: number | undefined;
  acumaticaProducts?: number | undefined;
  mappings?: number | undefined;
}

/** The getting-started steps, each computed from real state and linking to where it is done. */
export function computeChecklist(user: User | null, counts: ChecklistCounts): ChecklistItem[] {
  const subscribed = hasSubscriptionAccess(user);
  return [
    {
      id: "subscribed",
      title: "Choose a subscription plan",
      description: "An active or trialing subscription unlocks products, mapping, schedules and history.",
      done: subscribed,
      to: "/subscription",
      locked: false,
    },
    {
      id: "shopify",
      title: "Connect your Shopify store",
      description: "Save the store name and access token, then test the connection.",
      done: user?.shopifyConnection?.isVerified === true,
      to: "/settings",
      locked: false,
    },
    {
      id: "acumatica",
      title: "Connect Acumatica",
      description: "Save the instance URL, endpoint and credentials, then test the connection.",
      done: user?.acumaticaConnection?.isVerified === true,
      to: "/settings",
      locked: false,
    },
    {
      id: "products",
      title: "Pull your products",
      description: "Fetch the product lists of both systems.",
      done: (counts.shopifyProducts ?? 0) > 0 && (counts.acumaticaProducts ?? 0) > 0,
      to: "/products/shopify",
      locked: !subscribed,
    },
    {
      id: "mappings",
      title: "Map products",
      description: "Link Shopify variants to Acumatica items, automatically by SKU or by hand.",
      done: (counts.mappings ?? 0) > 0,
      to: "/mapping",
      locked: !subscribed,
    },
  ];
}

export function checklistProgress(items: readonly ChecklistItem[]): { done: number; total: number } {
  return { done: items.filter((item) => item.done).length, total: items.length };
}
