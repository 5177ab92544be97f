/** Business constants and limits (spec section 9). */
export const PRODUCT_NAME = "Stockbridge";
export const BRAND_LETTER = "S";
export const TOKEN_STORAGE_KEY = "stockbridge.token";

export const CLIENT_CACHE_MS = 5 * 60_000;
export const API_TIMEOUT_MS = 30_000;
export const PASSWORD_MIN_LENGTH = 6;
export const TABLE_SEARCH_DEBOUNCE_MS = 500;
export const MAPPING_SELECTOR_DEBOUNCE_MS = 1_000;
export const INFINITE_SCROLL_THRESHOLD_PX = 50;
export const MAPPING_MENU_MAX_HEIGHT_PX = 350;
export const MAPPING_SELECTOR_PAGE_SIZE = 20;
export const DEFAULT_PAGE_SIZE = 10;
export const PAGE_SIZE_OPTIONS = [10, 25, 100] as const;
export const MAX_PAGE_SIZE = 100;
export const EXECUTION_HISTORY_PAGE_SIZE = 10;
export const CANCEL_PAGE_REDIRECT_MS = 5_000;

export const ACUMATICA_API_VERSIONS = [
  "18.200.001",
  "20.200.001",
  "22.200.001",
  "23.200.001",
  "24.200.001",
  "25.200.001",
] as const;
export const DEFAULT_ACUMATICA_API_VERSION = "23.200.001";
/**
 * Acumatica sessions one connection may hold at once (each takes a licence seat, "Maximum Number of
 * Web Services API Users"): every sync, pull and test of the connection queues for one.
 */
export const ACUMATICA_MAX_SESSIONS = { min: 1, max: 20, default: 2 } as const;

export const SHOPIFY_API_VERSIONS = ["2024-07", "2024-10", "2025-01", "2025-04"] as const;
export const DEFAULT_SHOPIFY_API_VERSION = "2025-04";

export const ACUMATICA_QUANTITY_FIELDS = ["Available", "OnHand", "AvailableForShipping"] as const;
export const SHOPIFY_QUANTITY_FIELDS = ["Available", "OnHand"] as const;
export const DEFAULT_ACUMATICA_QUANTITY = "Available";
export const DEFAULT_SHOPIFY_QUANTITY = "Available";

export const SCHEDULE_TYPES = ["minutely", "hourly", "daily", "weekly", "monthly"] as const;
export const MINUTE_INTERVALS = [15, 30, 45] as const;
export const HOUR_INTERVALS = [1, 2, 4, 6, 8, 12] as const;

/** Subscription statuses that grant access to gated features. */
export const ACCESS_GRANTING_STATUSES = ["active", "trialing"] as const;
