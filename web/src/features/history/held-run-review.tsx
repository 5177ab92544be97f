import type { ExecutionHistorySummary, HeldChange, HeldReview } from "@stockbridge/shared";
import { useQuery } from "@tanstack/react-query";
import { useState } from "react";
import { useApi } from "../../lib/services-context.tsx";
import { DataTable, type DataTableColumn } from "../../ui/data-table/data-table.tsx";
import { formatRunDate, heldFieldLabel, heldResultLabel, heldValue } from "./history-logic.ts";
import { heldPlanQuery } from "./queries.ts";

interface PlanRow extends HeldChange {
  _id: string;
}

const COLUMNS: DataTableColumn<PlanRow>[] = [
  { id: "shopifySku", header: "Shopify SKU", className: "whitespace-nowrap" },
  { id: "acumaticaSku", header: "Acumatica SKU", className: "whitespace-nowrap" },
  { id: "field", header: "Field", accessor: (row) => heldFieldLabel(row.field) },
  { id: "location", header: "Location" },
  {
    id: "from",
    header: "Shopify Now",
    align: "right",
    className: "tabular-nums",
    accessor: (row) => heldValue(row, row.from),
  },
  {
    id: "to",
    header: "New",
    align: "right",
    className: "tabular-nums",
    accessor: (row) => heldValue(row, row.to),
  },
  {
    id: "result",
    header: "Result",
    className: "min-w-48",
    cell: (row) => (
      <span className={row.result === "written" || row.result === "unchanged" ? "" : "text-red-800"}>
        {heldResultLabel(row.result)}
        {row.note ? <span className="block text-xs text-gray-600">{row.note}</span> : null}
      </span>
    ),
  },
];

/**
 * A run the safety limits held: why, when, what was decided, and its plan, a page at a time (a plan
 * may hold tens of thousands of changes).
 */
export function HeldRunReview({ entry, review }: { entry: ExecutionHistorySummary; review: HeldReview }) {
  const api = useApi();
  const [page, setPage] = useState(1);
  const [limit, setLimit] = useState(10);
  const plan = useQuery(heldPlanQuery(api, entry._id, { status: entry.status, page, limit }));
  const rows: PlanRow[] = (plan.data?.changes ?? []).map((change, index) => ({
    ...change,
    _id: `${(page - 1) * limit + index}`,
  }));

  return (
    <section className="flex flex-col gap-3" aria-label="Held for review">
      <div className="rounded-md bg-amber-50 p-3 text-amber-900 ring-1 ring-amber-200">
        <h3 className="font-semibold">Held for review</h3>
        <p className="mt-1">{decisionText(review)}</p>
        <ul className="mt-2 list-disc pl-5">
          {review.reasons.map((reason) => (
            <li key={reason}>{reason}</li>
          ))}
        </ul>
      </div>
      <h3 className="text-base font-semibold text-gray-900">
        Plan ({review.changes} {review.changes === 1 ? "change" : "changes"})
      </h3>
      <DataTable
        label="Held plan"
        columns={COLUMNS}
        rows={rows}
        loading={plan.isFetching}
        server={{
          total: plan.data?.total ?? review.changes,
          page,
          rowsPerPage: limit,
          onPageChange: setPage,
          onRowsPerPageChange: (next) => {
            setLimit(next);
            setPage(1);
          },
        }}
      />
    </section>
  );
}

function decisionText(review: HeldReview): string {
  const held = `Held ${formatRunDate(review.heldAt)}: nothing was written to Shopify.`;
  if (review.decision === "approved")
    return `${held} Approved ${formatRunDate(review.decidedAt)}: the plan was applied where Shopify still held the values it saw.`;
  if (review.decision === "discarded") return `${held} Discarded ${formatRunDate(review.decidedAt)}.`;
  return `${held} Approve to write this plan, or discard it.`;
}
