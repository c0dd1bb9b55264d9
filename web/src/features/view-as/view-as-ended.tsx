import { Button } from '../../components/button';
import { usePageTitle } from '../../lib/page-title';
import { leaveViewing } from './api';
import './view-as.css';

/**
 * A view-as tab whose grant has ended (the time ran out, it was ended, the admin logged out):
 * it says so instead of showing anything, and never turns into the admin's own session.
 */
export function ViewAsEnded() {
  usePageTitle('Viewing ended');
  return (
    <main id="main" className="page-message view-as-ended">
      <h1>Viewing has ended</h1>
      <p role="status">This read-only view of a user's dashboard has ended. Open it again from User Management if you need it.</p>
      <Button onClick={leaveViewing}>Close this tab</Button>
    </main>
  );
}
