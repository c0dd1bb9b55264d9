import type { BillingDetails } from '@warmline/contracts/orders';

/** How a billing field is asked for in the payment form. */
type FieldRequirement = 'required' | 'optional' | 'hidden';

export interface BillingFieldsSpec {
  name: FieldRequirement;
  email: FieldRequirement;
  phone: FieldRequirement;
}

/** Package checkouts: the receipt goes to the e-mail, so name and e-mail are asked for. */
export const DEFAULT_BILLING_FIELDS: BillingFieldsSpec = { name: 'required', email: 'required', phone: 'hidden' };

export interface PaymentSuccess {
  /** The provider's payment intent id. */
  paymentIntentId: string;
  /** The order paid, when the provider says (the sandbox does). */
  orderId?: string;
  billing: BillingDetails;
}

/**
 * Why a payment did not go through:
 * - `declined`: the card or its details were refused (the message is the provider's, for the buyer);
 * - `unexpected`: something else went wrong (network, server); trying again may work.
 */
export interface PaymentFailure {
  kind: 'declined' | 'unexpected';
  message: string;
  /** The provider's code, e.g. 'card_declined', when it gave one. */
  code?: string;
}
