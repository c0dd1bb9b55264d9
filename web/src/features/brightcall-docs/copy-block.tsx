import { useState } from 'react';

/** A command shown as selectable text with a button that copies it (the clipboard may refuse). */
export function CopyBlock({ text, label, testId = 'curl-command' }: { text: string; label: string; testId?: string }) {
  const [state, setState] = useState<'idle' | 'copied' | 'failed'>('idle');
  const copy = async () => {
    try {
      await navigator.clipboard.writeText(text);
      setState('copied');
    } catch {
      // No clipboard here (an insecure origin, a refused permission): the command is selectable text.
      setState('failed');
    }
  };
  return (
    <div className="webhook-docs__copy">
      <pre className="webhook-docs__code" data-testid={testId} tabIndex={0}>
        <code>{text}</code>
      </pre>
      <button
        type="button"
        className="btn btn--secondary btn--small"
        onClick={() => void copy()}
      >
        {state === 'copied' ? 'Copied' : label}
      </button>
      <span role="status" className="webhook-docs__copy-status">
        {state === 'failed' ? 'Copying did not work here: select the command and copy it by hand.' : ''}
      </span>
    </div>
  );
}
