import { afterEach, describe, expect, it } from 'vitest';
import { callTransferOrderFormSchema } from '@warmline/contracts/transfers';
import { validate } from '../src/lib/form';
import { statesLabel } from '../src/features/transfers/order-format';
import {
  clearPendingTransferOrder,
  PENDING_TRANSFER_ORDER_KEY,
  readPendingTransferOrder,
  savePendingTransferOrder,
  type PendingTransferOrder,
} from '../src/features/transfers/pending-order';
import { prefilledTransferForm, transferTotalCents } from '../src/features/transfers/transfer-order-form';
import { TEST_BUYER } from './accounts-fixture';

const user = TEST_BUYER;

const order: PendingTransferOrder = {
  orderId: '0b7c2f0e-1111-4c55-9f0e-2a6b1c2d3e4f',
  clientSecret: 'pi_sandbox_abc_secret_def',
  totalPrice: '630.00',
  unitPrice: '31.50',
  transferDetails: { totalTransfers: 20, transfersPerDay: 5, states: ['TX', 'OK'] },
  userId: user.id,
};

afterEach(() => localStorage.clear());

describe('the call-transfer order form', () => {
  it('is pre-filled from the saved survey (states recognised in its free text) and the user’s phone', () => {
    const values = prefilledTransferForm(user, {
      leadType: 'Live Transfers',
      totalTransfers: 40,
      transfersPerDay: 8,
      callsPerDay: null,
      transferHours: '9-5 CST',
      workingStates: 'Texas, ok and Florida, Narnia',
      createdAt: '2026-11-20T10:00:00.000Z',
    });
    expect(values).toEqual({
      totalTransfers: '40',
      callsPerDay: '8',
      transferHours: '9-5 CST',
      transferPhone: '(512) 555-0142',
      workingStates: ['TX', 'OK', 'FL'],
    });
  });

  it('when a new agent’s survey says 160 calls a day and 10 transfers a day, then the per-day count is 10 and the form takes it (issue 22)', () => {
    const survey = {
      leadType: 'Live Transfers',
      totalTransfers: 100,
      transfersPerDay: 10,
      callsPerDay: 160,
      transferHours: 'Mon-Fri 9am-5pm CST',
      workingStates: 'TX',
      createdAt: '2026-11-20T10:00:00.000Z',
    };
    const values = prefilledTransferForm(user, survey);
    expect(values.callsPerDay).toBe('10');
    expect(validate(callTransferOrderFormSchema, values).ok).toBe(true);
    // Never above the total the form would refuse it against; nothing from calls per day alone.
    expect(prefilledTransferForm(user, { ...survey, totalTransfers: 6 }).callsPerDay).toBe('6');
    expect(prefilledTransferForm(user, { ...survey, totalTransfers: null }).callsPerDay).toBe('10');
    expect(prefilledTransferForm(user, { ...survey, transfersPerDay: null }).callsPerDay).toBe('');
  });

  it('without a saved survey, starts empty except the user’s phone', () => {
    expect(prefilledTransferForm(user, null)).toEqual({
      totalTransfers: '',
      callsPerDay: '',
      transferHours: '',
      transferPhone: '(512) 555-0142',
      workingStates: [],
    });
  });

  it('totals transfers × the agent’s own price, and nothing for a count that is not a whole number of at least 1', () => {
    expect(transferTotalCents('20', '31.50')).toBe(63000);
    expect(transferTotalCents('0', '31.50')).toBeNull();
    expect(transferTotalCents('2.5', '31.50')).toBeNull();
    expect(transferTotalCents('', '31.50')).toBeNull();
  });

  it('shows no total for a count above the maximum, nor for one no card payment can carry (issue 17)', () => {
    expect(transferTotalCents('10000', '35.00')).toBe(35_000_000);
    expect(transferTotalCents('99999', '35.00')).toBeNull();
    expect(transferTotalCents('10000', '150.00')).toBeNull();
  });

  it("refuses '2.5' transfers, and more calls per day than transfers in all, each with its message (issue 17)", () => {
    const order = { totalTransfers: '10', callsPerDay: '5', transferHours: '9-5 CST', transferPhone: '(512) 555-0142', workingStates: ['TX'] };
    expect(validate(callTransferOrderFormSchema, order).ok).toBe(true);
    expect(validate(callTransferOrderFormSchema, { ...order, totalTransfers: '2.5' })).toEqual({
      ok: false,
      errors: { totalTransfers: 'Must be a whole number of transfers' },
    });
    expect(validate(callTransferOrderFormSchema, { ...order, totalTransfers: '99999' })).toEqual({
      ok: false,
      errors: { totalTransfers: 'Must be at most 10,000 transfers' },
    });
    expect(validate(callTransferOrderFormSchema, { ...order, callsPerDay: '50' })).toEqual({
      ok: false,
      errors: { callsPerDay: 'Transfers per day (50) cannot be more than the total transfers (10)' },
    });
    expect(validate(callTransferOrderFormSchema, { ...order, callsPerDay: '10' }).ok).toBe(true);
    // Said in the same round as the other fields' messages, not only once they are fixed.
    expect(validate(callTransferOrderFormSchema, { ...order, callsPerDay: '50', transferHours: '', workingStates: [] })).toEqual({
      ok: false,
      errors: {
        callsPerDay: 'Transfers per day (50) cannot be more than the total transfers (10)',
        transferHours: 'Please specify transfer hours',
        workingStates: 'Please specify working states',
      },
    });
  });
});

describe('the pending transfer order in local storage', () => {
  it('is read back for its agent only, and forgotten once cleared', () => {
    savePendingTransferOrder(order);
    expect(readPendingTransferOrder(user.id)).toEqual(order);
    expect(readPendingTransferOrder('another-agent')).toBeNull();
    clearPendingTransferOrder();
    expect(readPendingTransferOrder(user.id)).toBeNull();
  });

  it('is ignored when what is stored is not an order (edited by hand, or an unknown state)', () => {
    localStorage.setItem(PENDING_TRANSFER_ORDER_KEY, '{not json');
    expect(readPendingTransferOrder(user.id)).toBeNull();
    localStorage.setItem(PENDING_TRANSFER_ORDER_KEY, JSON.stringify({ ...order, transferDetails: { ...order.transferDetails, states: ['XY'] } }));
    expect(readPendingTransferOrder(user.id)).toBeNull();
    localStorage.setItem(PENDING_TRANSFER_ORDER_KEY, JSON.stringify({ ...order, totalPrice: 630 }));
    expect(readPendingTransferOrder(user.id)).toBeNull();
  });
});

describe('the admin orders table', () => {
  it('shows the first two states, then +N more', () => {
    expect(statesLabel(['TX'])).toBe('TX');
    expect(statesLabel(['TX', 'OK'])).toBe('TX, OK');
    expect(statesLabel(['TX', 'OK', 'FL', 'GA'])).toBe('TX, OK +2 more');
  });
});
