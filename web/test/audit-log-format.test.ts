import { describe, expect, it } from 'vitest';
import { describeAction, describeChanges } from '../src/features/admin/audit-log/audit-log-format';

/** The audit log's words (issue 12): codes read as words, each value as before → after. */
describe('the audit log wording', () => {
  it('when an action code is shown, then it reads as words', () => {
    expect(describeAction('user.price_changed')).toBe('User price changed');
    expect(describeAction('transfer_order.status-changed')).toBe('Transfer order status changed');
  });

  it('when a value changed, then it is one line from before to after with a readable name', () => {
    expect(describeChanges({ liveTransferPrice: '35.00' }, { liveTransferPrice: '31.50' })).toEqual([
      { key: 'liveTransferPrice', label: 'live transfer price', before: '35.00', after: '31.50' },
    ]);
  });

  it('when an action created or removed values, then the missing side is null and every key is listed once', () => {
    expect(describeChanges(null, { active: true, slug: 'john' })).toEqual([
      { key: 'active', label: 'active', before: null, after: 'true' },
      { key: 'slug', label: 'slug', before: null, after: 'john' },
    ]);
    expect(describeChanges({ status: 'paid', refunded_cents: 0 }, { status: 'cancelled' })).toEqual([
      { key: 'status', label: 'status', before: 'paid', after: 'cancelled' },
      { key: 'refunded_cents', label: 'refunded cents', before: '0', after: null },
    ]);
  });
});
