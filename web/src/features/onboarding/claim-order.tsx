import { useState, type FormEvent } from 'react';
import { Link } from 'react-router-dom';
import type { OrderBrand } from '@warmline/contracts/orders';
import { Button } from '../../components/button';
import { PasswordField, TextField } from '../../components/field';
import { errorMessage } from '../../lib/api';
import { isLoggedIn, useCurrentUser, useLogin } from '../auth/api';
import { readOrderClaim, useClaimOrder } from '../checkout/order-claim';
import './claim-order.css';

/**
 * A package bought without a session, offered to be kept in an account (issue 17, ADR 0022):
 * with the claim token only this browser received at checkout, never by matching e-mail. A
 * logged-in buyer adds it with one click; anyone else creates an account (in a new tab, so
 * this page stays) and logs in here. Shown only while this browser holds the order's token.
 *
 * `brand` names the order's brand in the words; `callBacks` says the order's call-backs come
 * with it (a RingCloud Call-Backs order is credited to the account that claims it). Creating
 * an account is always the main survey: RingCloud's survey is its purchase funnel and ends at a
 * new checkout, which would ask a buyer who has just paid to pay again. One account serves both.
 */
export function ClaimOrderOffer({ orderId, brand = 'WarmLine', callBacks = false }: { orderId: string; brand?: OrderBrand; callBacks?: boolean }) {
  const [claimToken] = useState(() => readOrderClaim(orderId));
  const [claimed, setClaimed] = useState(false);
  const [username, setUsername] = useState('');
  const [password, setPassword] = useState('');
  const [loginProblem, setLoginProblem] = useState<string | null>(null);
  const me = useCurrentUser();
  const claim = useClaimOrder({ onSuccess: () => setClaimed(true) });
  const login = useLogin({
    onSuccess: (answer) => {
      if (isLoggedIn(answer)) {
        if (claimToken) claim.mutate({ orderId, claimToken });
      } else {
        // The second step (authenticator code) lives on the login page.
        setLoginProblem('Your account asks for a code from your authenticator app: log in on the login page, then open this page again.');
      }
    },
    onError: (error) => setLoginProblem(errorMessage(error, 'Login failed')),
  });

  if (claimed) {
    return (
      <section className="claim-order" aria-labelledby="claim-order-title">
        <h2 id="claim-order-title" className="claim-order__title">
          Added to your account
        </h2>
        <p role="status">
          This order and its receipt are in{' '}
          <Link to="/dashboard?view=my-orders" className="link">
            My Orders
          </Link>
          .
          {callBacks ? (
            <>
              {' '}
              Your call-backs are in{' '}
              <Link to="/dashboard?view=my-callbacks" className="link">
                My Call-backs
              </Link>
              .
            </>
          ) : null}
        </p>
      </section>
    );
  }
  if (!claimToken || me.isPending) return null;

  const orderName = brand === 'RingCloud' ? 'RingCloud order' : 'order';
  // Without an account a Call-Backs order has nobody to deliver its call-backs to.
  const benefit = callBacks
    ? 'receive its call-backs (they start once the order is in your account) and find its receipt in My Orders'
    : 'find this order and its receipt in My Orders';

  const failure = claim.isError ? errorMessage(claim.error, 'The order could not be added to your account') : null;

  if (me.data) {
    return (
      <section className="claim-order" aria-labelledby="claim-order-title">
        <h2 id="claim-order-title" className="claim-order__title">
          Keep this order in your account
        </h2>
        <p>
          You are logged in as {me.data.username}. Add this {orderName} to your account to {benefit}.
        </p>
        {failure ? (
          <p className="claim-order__error" role="alert">
            {failure}
          </p>
        ) : null}
        <Button busy={claim.isPending} onClick={() => claim.mutate({ orderId, claimToken })}>
          Add this order to my account
        </Button>
      </section>
    );
  }

  const submit = (event: FormEvent) => {
    event.preventDefault();
    setLoginProblem(null);
    login.mutate({ username: username.trim(), password });
  };

  return (
    <section className="claim-order" aria-labelledby="claim-order-title">
      <h2 id="claim-order-title" className="claim-order__title">
        Keep this order in an account
      </h2>
      <p>
        With an account you {benefit}.{' '}
        <a href="/survey" target="_blank" rel="noopener" className="link">
          Create an account (opens in a new tab)
        </a>
        , then log in here and we add this order to it. Only this browser can add it.
      </p>
      <form className="claim-order__form" onSubmit={submit} noValidate>
        <TextField label="Username" hint="Or the e-mail address of your account" name="username" autoComplete="username" value={username} onChange={(e) => setUsername(e.target.value)} />
        <PasswordField label="Password" name="password" autoComplete="current-password" value={password} onChange={(e) => setPassword(e.target.value)} />
        {loginProblem ?? failure ? (
          <p className="claim-order__error" role="alert">
            {loginProblem ?? failure}
          </p>
        ) : null}
        <Button type="submit" busy={login.isPending || claim.isPending} disabled={!username.trim() || !password}>
          Log in and add this order
        </Button>
      </form>
    </section>
  );
}
