import { BUFFER_SECONDS } from '@warmline/contracts/pricing';

/** What each tier comes with (spec §2), shown on the pricing pages and again at checkout. */

/** The core features every transfer comes with (listed on the standard page). */
export const CORE_FEATURES = [
  'TCPA-compliant qualified prospects',
  'Real-time delivery to agents',
  `${BUFFER_SECONDS}-second minimum call duration policy`,
  'Pre-screened and warmed prospects',
];

export const ENTERPRISE_BENEFITS = ['Dedicated account manager', 'Priority support', 'Custom reporting', 'Flexible payment terms'];

export const ULTIMATE_BENEFITS = [
  'Dedicated account manager',
  'Priority support and setup',
  'Custom reporting and analytics',
  'Flexible payment terms',
  'White-label options',
  'Volume discounts for additional products',
];
