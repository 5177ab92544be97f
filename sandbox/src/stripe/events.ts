import { newId } from "./ids.ts";
import type { EventRecord, StripeStore } from "./records.ts";
import type { StripeObject } from "./render.ts";

/** Stores an event with a snapshot of the object as it is now (later changes do not leak in). */
export function recordEvent(
  store: StripeStore,
  input: {
    type: string;
    created: number;
    object: StripeObject;
    previousAttributes?: Record<string, unknown>;
  },
): EventRecord {
  const event: EventRecord = {
    id: newId("evt_"),
    seq: store.nextSeq(),
    type: input.type,
    created: input.created,
    object: structuredClone(input.object),
    previousAttributes: input.previousAttributes ? structuredClone(input.previousAttributes) : null,
  };
  store.events.set(event.id, event);
  return event;
}

/** `data.previous_attributes` of an `*.updated` event: the old value of every top-level field that changed. */
export function previousAttributes(before: StripeObject, after: StripeObject): Record<string, unknown> {
  const changed: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(before)) {
    if (JSON.stringify(value) !== JSON.stringify(after[key])) changed[key] = value;
  }
  return changed;
}
