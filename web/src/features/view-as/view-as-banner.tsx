import { useEffect, useState } from 'react';
import { Button } from '../../components/button';
import { useCurrentUser } from '../auth/api';
import { endViewing } from './api';
import './view-as.css';

/** '29 min left', 'less than a minute left': minutes are enough, and a live countdown would be noise. */
export function timeLeftText(expiresAt: string, now: number): string {
  const minutes = Math.floor((Date.parse(expiresAt) - now) / 60_000);
  if (minutes < 1) return 'less than a minute left';
  return `${minutes} min left`;
}

/** Re-renders every `everyMs` so the time left moves on. */
function useNow(everyMs: number): number {
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    const timer = window.setInterval(() => setNow(Date.now()), everyMs);
    return () => window.clearInterval(timer);
  }, [everyMs]);
  return now;
}

/**
 * The top of a view-as tab: whose dashboard this is, that it is read only, the time left and
 * End viewing. The agent's name comes from the server (GET /api/current-user with the tab's grant).
 */
export function ViewAsBanner() {
  const currentUser = useCurrentUser();
  const now = useNow(15_000);
  const [ending, setEnding] = useState(false);
  const user = currentUser.data;
  const name = user ? `${user.firstName} ${user.lastName}`.trim() || user.username : null;
  const expiresAt = user?.viewingAs?.expiresAt;

  return (
    <section className="view-as-banner" aria-label="Viewing as another user">
      <div className="view-as-banner__inner">
        <p className="view-as-banner__text" role="status">
          {name ? `Viewing as ${name} — read only` : 'Viewing as another user — read only'}
        </p>
        {expiresAt ? (
          <p className="view-as-banner__time" data-testid="view-as-time-left">
            {timeLeftText(expiresAt, now)}
          </p>
        ) : null}
        <Button
          variant="secondary"
          className="btn--small view-as-banner__end"
          busy={ending}
          onClick={() => {
            setEnding(true);
            void endViewing();
          }}
        >
          End viewing
        </Button>
      </div>
    </section>
  );
}
