import { Tab, TabGroup, TabList, TabPanel, TabPanels } from "@headlessui/react";
import type { ReactNode } from "react";
import { cn } from "./cn.ts";

export interface TabItem<I extends string = string> {
  id: I;
  label: string;
  content: ReactNode;
}

export interface TabsProps<I extends string = string> {
  tabs: ReadonlyArray<TabItem<I>>;
  /** Controlled selection; leave out to let the tabs hold it. */
  selectedId?: I;
  onChange?(id: I): void;
  /** Accessible name of the tab list. */
  label?: string;
  className?: string;
  /** Keep hidden panels mounted (hidden), so their state (typed input) survives a tab switch. */
  keepMounted?: boolean;
}

/** Tabs with arrow-key navigation (Headless UI). */
export function Tabs<I extends string = string>({
  tabs,
  selectedId,
  onChange,
  label,
  className,
  keepMounted = false,
}: TabsProps<I>) {
  const index =
    selectedId === undefined
      ? undefined
      : Math.max(
          0,
          tabs.findIndex((tab) => tab.id === selectedId),
        );
  return (
    <TabGroup
      className={className}
      {...(index === undefined ? {} : { selectedIndex: index })}
      onChange={(next: number) => {
        const tab = tabs[next];
        if (tab) onChange?.(tab.id);
      }}
    >
      {/* On a phone the tabs scroll sideways inside their strip, not the page; the rule under them is
          an inset shadow, so the selected tab's underline covers it without leaving the strip. */}
      <TabList
        aria-label={label}
        className="flex gap-1 overflow-x-auto overflow-y-hidden shadow-[inset_0_-1px_0_0_var(--color-gray-200)]"
      >
        {tabs.map((tab) => (
          <Tab
            key={tab.id}
            className={cn(
              "shrink-0 border-b-2 border-transparent px-4 py-2.5 text-sm font-medium text-gray-600 hover:text-gray-900",
              "data-selected:border-accent-600 data-selected:text-accent-700",
            )}
          >
            {tab.label}
          </Tab>
        ))}
      </TabList>
      <TabPanels className="pt-4">
        {tabs.map((tab) => (
          <TabPanel key={tab.id} unmount={!keepMounted}>
            {tab.content}
          </TabPanel>
        ))}
      </TabPanels>
    </TabGroup>
  );
}
