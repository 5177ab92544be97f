import type { DashboardDay } from "@stockbridge/shared";
import { AxisBottom, AxisLeft } from "@visx/axis";
import { Group } from "@visx/group";
import { scaleBand, scaleLinear } from "@visx/scale";
import { BarStack } from "@visx/shape";
import { useEffect, useId, useRef, useState } from "react";
import { dayLabel, describeDay, RUN_SERIES, type RunSeriesKey, summarizeDays } from "./dashboard-logic.ts";

const HEIGHT = 220;
const MARGIN = { top: 8, right: 8, bottom: 28, left: 40 };
const KEYS: RunSeriesKey[] = RUN_SERIES.map((series) => series.key);
const COLORS = new Map<RunSeriesKey, string>(RUN_SERIES.map((series) => [series.key, series.color]));

/** The width the chart may take: its box's, followed as the window (or a drawer) resizes it. */
function useWidth(): [React.RefObject<HTMLDivElement | null>, number] {
  const ref = useRef<HTMLDivElement | null>(null);
  const [width, setWidth] = useState(0);
  useEffect(() => {
    const element = ref.current;
    if (!element) return;
    setWidth(element.clientWidth);
    const observer = new ResizeObserver(([entry]) => setWidth(entry?.contentRect.width ?? 0));
    observer.observe(element);
    return () => observer.disconnect();
  }, []);
  return [ref, width];
}

/**
 * The last 30 days' items per day, stacked synced / failed / skipped (visx: SVG, so it is styled
 * and labelled like the rest of the page). Each day's bar has a title (the pointer's tooltip) and
 * the whole chart a description; the same figures are a table for screen readers.
 */
export function RunsChart({ days }: { days: readonly DashboardDay[] }) {
  const [ref, width] = useWidth();
  const titleId = useId();
  const descriptionId = useId();
  const innerWidth = Math.max(0, width - MARGIN.left - MARGIN.right);
  const innerHeight = HEIGHT - MARGIN.top - MARGIN.bottom;
  const highest = Math.max(1, ...days.map((day) => day.successes + day.failures + day.skipped));
  const x = scaleBand<string>({ domain: days.map((day) => day.date), range: [0, innerWidth], padding: 0.25 });
  const y = scaleLinear<number>({ domain: [0, highest], range: [innerHeight, 0], nice: true });
  // About one date label a week on a phone, every few days on a wide screen.
  const every = Math.max(1, Math.ceil(days.length / Math.max(1, Math.floor(innerWidth / 56))));

  return (
    <div>
      <div ref={ref} className="w-full overflow-hidden">
        {width > 0 ? (
          <svg
            width={width}
            height={HEIGHT}
            role="img"
            aria-labelledby={`${titleId} ${descriptionId}`}
            data-chart="runs-by-day"
          >
            <title id={titleId}>Items synced, failed and skipped per day</title>
            <desc id={descriptionId}>{summarizeDays(days)}</desc>
            <Group left={MARGIN.left} top={MARGIN.top}>
              <BarStack<DashboardDay, RunSeriesKey>
                data={[...days]}
                keys={KEYS}
                x={(day) => day.date}
                xScale={x}
                yScale={y}
                color={(key) => COLORS.get(key) ?? "#9ca3af"}
              >
                {(stacks) =>
                  days.map((day, index) => (
                    <g key={day.date} data-date={day.date} data-runs={day.runs}>
                      <title>{describeDay(day)}</title>
                      {/* A full-height strip, so a day without runs still has its tooltip. */}
                      <rect
                        x={x(day.date) ?? 0}
                        y={0}
                        width={x.bandwidth()}
                        height={innerHeight}
                        fill="transparent"
                      />
                      {stacks.map((stack) => {
                        const bar = stack.bars[index];
                        if (!bar || bar.height <= 0) return null;
                        return (
                          <rect
                            key={stack.key}
                            data-series={stack.key}
                            x={bar.x}
                            y={bar.y}
                            width={bar.width}
                            height={bar.height}
                            fill={bar.color}
                            rx={1}
                          />
                        );
                      })}
                    </g>
                  ))
                }
              </BarStack>
              {/* The axes are drawn for the eye: the description and the table below say the figures. */}
              <Group aria-hidden="true">
                <AxisLeft
                  scale={y}
                  numTicks={4}
                  tickFormat={(value) => String(value)}
                  stroke="#e5e7eb"
                  tickStroke="#e5e7eb"
                  tickLabelProps={{ fill: "#6b7280", fontSize: 11, textAnchor: "end", dx: -4, dy: 3 }}
                />
                <AxisBottom
                  top={innerHeight}
                  scale={x}
                  tickValues={days
                    .filter((_, index) => (days.length - 1 - index) % every === 0)
                    .map((d) => d.date)}
                  tickFormat={(date) => dayLabel(String(date))}
                  stroke="#e5e7eb"
                  tickStroke="#e5e7eb"
                  tickLabelProps={{ fill: "#6b7280", fontSize: 11, textAnchor: "middle" }}
                />
              </Group>
            </Group>
          </svg>
        ) : (
          <div style={{ height: HEIGHT }} />
        )}
      </div>
      <ul className="mt-3 flex flex-wrap gap-4 text-xs text-gray-600" aria-label="Legend">
        {RUN_SERIES.map((series) => (
          <li key={series.key} className="inline-flex items-center gap-1.5">
            <span
              className="size-2.5 rounded-sm"
              style={{ backgroundColor: series.color }}
              aria-hidden="true"
            />
            {series.label}
          </li>
        ))}
      </ul>
      <table className="sr-only">
        <caption>Items per day, last {days.length} days</caption>
        <thead>
          <tr>
            <th scope="col">Day</th>
            <th scope="col">Runs</th>
            {RUN_SERIES.map((series) => (
              <th key={series.key} scope="col">
                {series.label}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {days.map((day) => (
            <tr key={day.date}>
              <th scope="row">{dayLabel(day.date)}</th>
              <td>{day.runs}</td>
              {RUN_SERIES.map((series) => (
                <td key={series.key}>{day[series.key]}</td>
              ))}
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
