import { US_STATE_CODES } from '@warmline/contracts/us-states';

/**
 * The transfer order waiting for its payment (spec §3 local storage: clientSecret, totalPrice,
 * transferDetails with totalTransfers, transfersPerDay, states), so /transfer-checkout can
 * show it after a reload. Removed once it is paid. It names the agent it belongs to, so a
 * shared browser never offers one agent's order to another.
 */
export const PENDING_TRANSFER_ORDER_KEY = 'pendingTransferOrder';

export interface PendingTransferOrder {
  orderId: string;
  clientSecret: string;
  /** Dollars as a decimal string, e.g. '630.00'. */
  totalPrice: string;
  /** The per-transfer price the order was made at, e.g. '31.50'. */
  unitPrice: string;
  transferDetails: {
    totalTransfers: number;
    transfersPerDay: number;
    states: string[];
  };
  userId: string;
}

export function savePendingTransferOrder(order: PendingTransferOrder): void {
  try {
    localStorage.setItem(PENDING_TRANSFER_ORDER_KEY, JSON.stringify(order));
  } catch {
    // Storage full or disabled: the payment still shows in the dashboard; only a reload loses it.
  }
}

const isCount = (v: unknown): v is number => typeof v === 'number' && Number.isInteger(v) && v > 0;
const isDecimal = (v: unknown): v is string => typeof v === 'string' && /^\d+\.\d{2}$/.test(v);

/** The stored order of this agent, or null (none, someone else's, or not a shape we wrote). */
export function readPendingTransferOrder(userId: string): PendingTransferOrder | null {
  let saved: unknown;
  try {
    const raw = localStorage.getItem(PENDING_TRANSFER_ORDER_KEY);
    if (!raw) return null;
    saved = JSON.parse(raw);
  } catch {
    return null;
  }
  if (typeof saved !== 'object' || saved === null) return null;
  const o = saved as Partial<PendingTransferOrder>;
  const details = o.transferDetails;
  const valid =
    typeof o.orderId === 'string' &&
    typeof o.clientSecret === 'string' &&
    o.clientSecret.length > 0 &&
    isDecimal(o.totalPrice) &&
    isDecimal(o.unitPrice) &&
    o.userId === userId &&
    typeof details === 'object' &&
    details !== null &&
    isCount(details.totalTransfers) &&
    isCount(details.transfersPerDay) &&
    Array.isArray(details.states) &&
    details.states.length > 0 &&
    details.states.every((s) => (US_STATE_CODES as readonly string[]).includes(s));
  return valid ? (o as PendingTransferOrder) : null;
}

export function clearPendingTransferOrder(): void {
  try {
    localStorage.removeItem(PENDING_TRANSFER_ORDER_KEY);
  } catch {
    // nothing to clear
  }
}
