import { useState } from 'react';
import { Button } from '../../components/button';

/** The file a user downloads: one code a line, with what they are for. */
const RECOVERY_CODES_FILE = 'warmline-recovery-codes.txt';

/** The codes as text to keep: what they are, then one code a line. */
function recoveryCodesText(codes: readonly string[], username?: string): string {
  return [
    `WarmLine recovery codes${username ? ` for ${username}` : ''}`,
    'Each code signs you in once, in place of a code from your authenticator app.',
    '',
    ...codes,
    '',
  ].join('\n');
}

/**
 * The ten recovery codes, shown once (issue 22 item 12): each on one line, never broken in the
 * middle, with buttons to copy them all or download them as a text file, so keeping them takes
 * one click.
 */
export function RecoveryCodes({ codes, username }: { codes: readonly string[]; username?: string }) {
  const [status, setStatus] = useState('');
  const text = recoveryCodesText(codes, username);

  async function copy() {
    try {
      await navigator.clipboard.writeText(text);
      setStatus('Recovery codes copied.');
    } catch {
      // No clipboard here (an insecure origin, a refused permission): they can still be downloaded or selected.
      setStatus('Copying did not work here: download the codes, or select them and copy by hand.');
    }
  }

  function download() {
    const url = URL.createObjectURL(new Blob([text], { type: 'text/plain;charset=utf-8' }));
    const link = document.createElement('a');
    link.href = url;
    link.download = RECOVERY_CODES_FILE;
    document.body.append(link);
    link.click();
    link.remove();
    // Revoked after the click has started the download.
    setTimeout(() => URL.revokeObjectURL(url), 1000);
    setStatus(`Recovery codes downloaded as ${RECOVERY_CODES_FILE}.`);
  }

  return (
    <div className="recovery-codes">
      <ul className="two-factor__codes" aria-label="Recovery codes" data-testid="recovery-codes">
        {codes.map((code) => (
          <li key={code}>
            <code>{code}</code>
          </li>
        ))}
      </ul>
      <div className="recovery-codes__actions">
        <Button variant="secondary" className="btn--small" onClick={() => void copy()}>
          Copy codes
        </Button>
        <Button variant="secondary" className="btn--small" onClick={download}>
          Download codes
        </Button>
      </div>
      <p role="status" className="recovery-codes__status">
        {status}
      </p>
    </div>
  );
}
