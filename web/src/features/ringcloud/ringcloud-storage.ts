import {
  campaignOrderFor,
  ringcloudSurveyStep2Schema,
  type CampaignOrder,
  type SurveySubmission,
} from '@warmline/contracts/surveys';

/**
 * The second brand's answers between its survey and its checkout (spec §3: local storage key
 * 'ringcloud survey', removed after a successful payment). The password is never stored.
 */
const RINGCLOUD_SURVEY_KEY = 'ringcloud survey';

type SavedRingcloudSurvey = Omit<SurveySubmission, 'password'>;

export interface RingcloudCheckoutData {
  answers: SavedRingcloudSurvey;
  order: Extract<CampaignOrder, { ok: true }>;
}

export function saveRingcloudSurvey(answers: SurveySubmission): void {
  const { password: _never, ...kept } = answers;
  try {
    localStorage.setItem(RINGCLOUD_SURVEY_KEY, JSON.stringify(kept));
  } catch {
    // Storage full or disabled: the checkout will send the user back to the survey.
  }
}

/** The saved answers and the order they make, or null when there are none that price. */
export function readRingcloudSurvey(): RingcloudCheckoutData | null {
  let raw: string | null;
  try {
    raw = localStorage.getItem(RINGCLOUD_SURVEY_KEY);
  } catch {
    return null;
  }
  if (!raw) return null;
  let saved: unknown;
  try {
    saved = JSON.parse(raw);
  } catch {
    return null;
  }
  // Checked again with the survey's own schema: storage is the user's to edit.
  const step2 = ringcloudSurveyStep2Schema.safeParse(saved);
  if (!step2.success) return null;
  const order = campaignOrderFor(step2.data);
  if (!order.ok) return null;
  const text = (key: string) => {
    const value = (saved as Record<string, unknown>)[key];
    return typeof value === 'string' ? value : '';
  };
  return {
    answers: {
      ...step2.data,
      firstName: text('firstName'),
      lastName: text('lastName'),
      agencyName: text('agencyName'),
      role: text('role') as SavedRingcloudSurvey['role'],
      phone: text('phone'),
      email: text('email'),
      username: text('username'),
    },
    order,
  };
}

export function clearRingcloudSurvey(): void {
  try {
    localStorage.removeItem(RINGCLOUD_SURVEY_KEY);
    sessionStorage.removeItem(RINGCLOUD_CHECKOUT_TOKEN_KEY);
    sessionStorage.removeItem(RINGCLOUD_CHECKOUT_ORDER_KEY);
  } catch {
    // nothing to clear
  }
}

/**
 * The survey answer's one-time checkout token (issue 12), which links the checkout right after
 * the survey to the account it created. Kept for this tab only (sessionStorage): it is single
 * use and expires soon, and the server decides whether it still links anything.
 */
const RINGCLOUD_CHECKOUT_TOKEN_KEY = 'ringcloud checkout token';
/**
 * The checkout's idempotency key, one per survey answer: reloading the checkout gives back the
 * same order, which the token already linked (a new order would find the token used up).
 */
const RINGCLOUD_CHECKOUT_ORDER_KEY = 'ringcloud checkout key';

export function saveRingcloudCheckoutToken(token: string | undefined): void {
  try {
    // A new survey answer starts a new checkout.
    sessionStorage.removeItem(RINGCLOUD_CHECKOUT_ORDER_KEY);
    if (token) sessionStorage.setItem(RINGCLOUD_CHECKOUT_TOKEN_KEY, token);
    else sessionStorage.removeItem(RINGCLOUD_CHECKOUT_TOKEN_KEY);
  } catch {
    // Storage disabled: the order is paid all the same, just not linked to the account.
  }
}

/** This survey answer's checkout key, made on first use. */
export function ringcloudCheckoutKey(newKey: () => string): string {
  try {
    const kept = sessionStorage.getItem(RINGCLOUD_CHECKOUT_ORDER_KEY);
    if (kept) return kept;
    const key = newKey();
    sessionStorage.setItem(RINGCLOUD_CHECKOUT_ORDER_KEY, key);
    return key;
  } catch {
    return newKey();
  }
}

export function readRingcloudCheckoutToken(): string | undefined {
  try {
    return sessionStorage.getItem(RINGCLOUD_CHECKOUT_TOKEN_KEY) ?? undefined;
  } catch {
    return undefined;
  }
}
