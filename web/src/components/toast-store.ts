import { useSyncExternalStore } from 'react';

/**
 * The toasts on screen, kept outside React so any code (a mutation callback, a guard) can
 * raise one. Spec §7: one at a time — a new toast replaces the one showing.
 */
export type ToastVariant = 'default' | 'success' | 'destructive';

export interface ToastMessage {
  id: number;
  title: string;
  description?: string;
  variant: ToastVariant;
  open: boolean;
}

const TOAST_LIMIT = 1;
/** How long a dismissed toast stays mounted so its closing animation can run. */
const REMOVE_DELAY_MS = 300;

let toasts: ToastMessage[] = [];
let nextId = 1;
const listeners = new Set<() => void>();

function emit(next: ToastMessage[]) {
  toasts = next;
  for (const listener of listeners) listener();
}

export function toast(message: { title: string; description?: string; variant?: ToastVariant }): number {
  const id = nextId++;
  const entry: ToastMessage = { id, variant: 'default', ...message, open: true };
  emit([entry, ...toasts].slice(0, TOAST_LIMIT));
  return id;
}

export function dismissToast(id: number): void {
  emit(toasts.map((t) => (t.id === id ? { ...t, open: false } : t)));
  setTimeout(() => emit(toasts.filter((t) => t.id !== id || t.open)), REMOVE_DELAY_MS);
}

function subscribe(listener: () => void) {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

export function useToasts(): ToastMessage[] {
  return useSyncExternalStore(subscribe, () => toasts, () => toasts);
}
