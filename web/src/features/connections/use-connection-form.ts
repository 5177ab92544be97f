import type { Connections } from "@stockbridge/shared";
import { useMutation } from "@tanstack/react-query";
import type { FormEvent } from "react";
import { errorMessage } from "../../lib/errors.ts";
import type { Errors } from "../../lib/form-state.ts";
import { useForm } from "../../lib/use-form.ts";
import { toast } from "../../ui/toast.tsx";
import type { ConnectionCardProps, ConnectionStatus } from "./connection-card.tsx";
import { useConnectionCache } from "./use-connection-cache.ts";

export interface ConnectionFormOptions<V extends Record<string, string>, C extends ConnectionStatus> {
  /** The saved connection, or null when nothing is saved yet. */
  connection: C | null;
  /** The form's starting values (the saved connection, or the sandbox demo after a fill). */
  initial: V;
  /** Must be stable (useCallback): the form re-validates when it changes. */
  validate(values: V): Errors<Extract<keyof V, string>>;
  /** The form of a saved connection: the form after a save, and what `dirty` compares with. */
  formFrom(connection: C | null): V;
  save(values: V): Promise<C>;
  test(): Promise<C>;
  /** The answer of a save or test as a patch of the cached connections. */
  cached(connection: C): Partial<Connections>;
  messages: { updated: string; updateFailed: string; testOk: string; testFailed: string };
}

/**
 * What both connection cards do besides their fields: the form, save and test with their toasts,
 * the cache updates of useConnectionCache, and the props of the ConnectionCard frame. Typed input
 * survives any error: only a successful save resets the form (to what was saved).
 */
export function useConnectionForm<V extends Record<string, string>, C extends ConnectionStatus>(
  options: ConnectionFormOptions<V, C>,
) {
  const { connection, messages } = options;
  const cache = useConnectionCache();

  const save = useMutation({
    mutationFn: options.save,
    onSuccess(saved) {
      cache.replace(options.cached(saved));
      form.reset(options.formFrom(saved));
      toast.success(messages.updated);
      void cache.refreshUser();
    },
    onError(error) {
      toast.error(errorMessage(error, messages.updateFailed));
    },
  });

  const test = useMutation({
    mutationFn: options.test,
    onSuccess(tested) {
      cache.replace(options.cached(tested));
      toast.success(messages.testOk);
      void cache.refreshUser();
    },
    onError(error) {
      toast.error(errorMessage(error, messages.testFailed));
      cache.reload();
      void cache.refreshUser();
    },
  });

  const form = useForm<V>({
    initial: options.initial,
    validate: options.validate,
    onSubmit: async (values) => {
      await save.mutateAsync(values).catch(() => undefined);
    },
  });

  const savedForm = options.formFrom(connection);
  const dirty = (Object.keys(savedForm) as (keyof V)[]).some((key) => form.values[key] !== savedForm[key]);
  const card: Omit<ConnectionCardProps, "system" | "details" | "children"> = {
    status: connection,
    dirty,
    saving: save.isPending,
    testing: test.isPending,
    onSubmit: (event: FormEvent) => void form.handleSubmit(event),
    onTest: () => test.mutate(),
  };
  return { form, card };
}
