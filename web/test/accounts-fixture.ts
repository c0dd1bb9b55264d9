import type { PublicUser } from '@warmline/contracts/accounts';

/** The signed-in agents the SPA's tests render screens for (what GET /api/user would answer). */
export const TEST_AGENT: PublicUser = {
  id: '3f1d2c4b-5a69-4788-9a0b-1c2d3e4f5a6b',
  username: 'jane',
  email: 'jane@agency.example',
  firstName: 'Jane',
  lastName: 'Agent',
  phone: '5125550100',
  agencyName: 'Jane Agency',
  role: 'Agency Owner',
  isAdmin: false,
  liveTransferPrice: '35.00',
  createdAt: '2026-11-01T10:00:00.000Z',
};

/** A lead buyer with a negotiated transfer price. */
export const TEST_BUYER: PublicUser = {
  id: '7d9f5d0e-3b0a-4c55-9f0e-2a6b1c2d3e4f',
  username: 'tess',
  email: 'tess@example.com',
  firstName: 'Tess',
  lastName: 'Rancher',
  phone: '(512) 555-0142',
  agencyName: 'Rancher Insurance',
  role: 'Agency Owner',
  isAdmin: false,
  liveTransferPrice: '31.50',
  createdAt: '2026-11-21T10:00:00.000Z',
};
