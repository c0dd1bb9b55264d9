/**
 * What the sandbox does with a well-formed card, following Stripe's test cards
 * (https://docs.stripe.com/testing) and Stripe's wording, so the SPA and the e2e tests
 * behave the same against the sandbox and against Stripe in test mode. Malformed cards
 * (bad number, past expiry, short CVC) are refused earlier by the contracts schema.
 */
export type CardOutcome =
  | { succeeded: true }
  | { succeeded: false; code: string; declineCode?: string; message: string };

const DECLINED = "Your card was declined.";

const TEST_CARDS: Record<string, CardOutcome> = {
  '4242424242424242': { succeeded: true }, // Visa
  '4000056655665556': { succeeded: true }, // Visa (debit)
  '5555555555554444': { succeeded: true }, // Mastercard
  '378282246310005': { succeeded: true }, // American Express
  '4000000000000002': { succeeded: false, code: 'card_declined', declineCode: 'generic_decline', message: DECLINED },
  '4000000000009995': {
    succeeded: false,
    code: 'card_declined',
    declineCode: 'insufficient_funds',
    message: 'Your card has insufficient funds.',
  },
  '4000000000009987': { succeeded: false, code: 'card_declined', declineCode: 'lost_card', message: DECLINED },
  '4000000000009979': { succeeded: false, code: 'card_declined', declineCode: 'stolen_card', message: DECLINED },
  '4000000000000069': { succeeded: false, code: 'expired_card', message: 'Your card has expired.' },
  '4000000000000127': { succeeded: false, code: 'incorrect_cvc', message: "Your card's security code is incorrect." },
  '4000000000000119': {
    succeeded: false,
    code: 'processing_error',
    message: 'An error occurred while processing your card. Try again in a little bit.',
  },
};

/** Any other number is refused, as Stripe's test mode refuses real cards. */
const NOT_A_TEST_CARD: CardOutcome = {
  succeeded: false,
  code: 'card_declined',
  declineCode: 'test_mode_live_card',
  message: 'Your card was declined. The sandbox accepts only test cards such as 4242 4242 4242 4242.',
};

/** The outcome of charging `digits` (spaces already removed). */
export function sandboxCardOutcome(digits: string): CardOutcome {
  return TEST_CARDS[digits] ?? NOT_A_TEST_CARD;
}
