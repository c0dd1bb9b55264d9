import { useState } from 'react';
import { afterEach, describe, expect, it } from 'vitest';
import { cleanup, fireEvent, render, screen } from '@testing-library/react';
import { Dialog } from '../src/components/dialog';

afterEach(cleanup);

function Harness() {
  const [open, setOpen] = useState(true);
  return (
    <Dialog open={open} onOpenChange={setOpen} title="Change Password" description="Set a new password for amy.">
      <p>form here</p>
    </Dialog>
  );
}

describe('the shared dialog', () => {
  it('when open, then it is a dialog named by its title and described by its description', () => {
    render(<Harness />);
    const dialog = screen.getByRole('dialog', { name: 'Change Password' });
    const describedBy = dialog.getAttribute('aria-describedby');
    expect(describedBy && document.getElementById(describedBy)?.textContent).toBe('Set a new password for amy.');
  });

  it('when the close button is pressed, then it closes', () => {
    render(<Harness />);
    fireEvent.click(screen.getByRole('button', { name: 'Close' }));
    expect(screen.queryByRole('dialog')).toBeNull();
  });
});
