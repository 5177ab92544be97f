import type { Migration } from "../migrate.ts";
import { accounts } from "./001-accounts.ts";
import { billing } from "./002-billing.ts";
import { connections } from "./003-connections.ts";
import { jobsAndCatalogs } from "./004-jobs-and-catalogs.ts";
import { settingsMappingsHistory } from "./005-settings-mappings-history.ts";
import { subscriptionPlanName } from "./006-subscription-plan-name.ts";
import { catalogPulls } from "./007-catalog-pulls.ts";
import { mappingSchedules } from "./008-mapping-schedules.ts";
import { catalogSearchIndex } from "./009-catalog-search-index.ts";
import { catalogStagingChunks } from "./010-catalog-staging-chunks.ts";
import { catalogRowsByOrder } from "./011-catalog-rows-by-order.ts";
import { billingLocks } from "./012-billing-locks.ts";
import { authAttempts } from "./013-auth-attempts.ts";
import { runLeasesAndSessionSlots } from "./014-run-leases-and-session-slots.ts";
import { unmappedIndex } from "./016-unmapped-index.ts";
import { personalTokens } from "./017-personal-tokens.ts";
import { bulkSlots } from "./018-bulk-slots.ts";
import { cronTicks } from "./019-cron-ticks.ts";
import { connectionCurrencies } from "./020-connection-currencies.ts";
import { runOutcomes } from "./021-run-outcomes.ts";
import { alerts } from "./022-alerts.ts";
import { safetyLimits } from "./023-safety-limits.ts";
import { drift } from "./024-drift.ts";
import { planLimits } from "./025-plan-limits.ts";
import { durableJobs } from "./026-durable-jobs.ts";
import { changeFeeds } from "./027-change-feeds.ts";
import { locations } from "./028-locations.ts";
import { stagingRowOffsets } from "./030-staging-row-offsets.ts";
import { idempotencyKeys } from "./031-idempotency-keys.ts";
import { syncWatermarks } from "./032-sync-watermarks.ts";
import { historyChangesSince } from "./033-history-changes-since.ts";

/**
 * Versioned schema changes, oldest first, one file each (NNN-name.ts). Never edit a released
 * migration: add a new file and append it here. Money is stored in integer cents; times as ISO-8601
 * UTC text; every user-owned row has user_id.
 */
export const MIGRATIONS: Migration[] = [
  accounts,
  billing,
  connections,
  jobsAndCatalogs,
  settingsMappingsHistory,
  subscriptionPlanName,
  catalogPulls,
  mappingSchedules,
  catalogSearchIndex,
  catalogStagingChunks,
  catalogRowsByOrder,
  billingLocks,
  authAttempts,
  runLeasesAndSessionSlots,
  unmappedIndex,
  personalTokens,
  bulkSlots,
  cronTicks,
  connectionCurrencies,
  runOutcomes,
  alerts,
  safetyLimits,
  drift,
  planLimits,
  durableJobs,
  changeFeeds,
  locations,
  stagingRowOffsets,
  idempotencyKeys,
  syncWatermarks,
  historyChangesSince,
];
