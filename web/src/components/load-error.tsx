import { errorMessage } from '../lib/api';
import { Button } from './button';

/** A list that could not be read: what failed, the server's words, and a Retry (spec §8's 'Failed to fetch …'). */
export function LoadError({ what, error, onRetry }: { what: string; error: unknown; onRetry: () => void }) {
  return (
    <div className="card" role="alert">
      <p>
        Failed to fetch {what}: {errorMessage(error, 'the server did not answer')}.
      </p>
      <Button variant="secondary" onClick={onRetry}>
        Retry
      </Button>
    </div>
  );
}
