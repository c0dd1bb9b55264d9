import type { ReactNode } from 'react';
import * as RadixDialog from '@radix-ui/react-dialog';

/**
 * A modal dialog with a title, an optional description and a close button; focus is trapped
 * inside and returns to the opener on close (radix). Controlled by `open` / `onOpenChange`.
 */
export function Dialog({
  open,
  onOpenChange,
  title,
  description,
  children,
}: {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  title: string;
  description?: ReactNode;
  children: ReactNode;
}) {
  return (
    <RadixDialog.Root open={open} onOpenChange={onOpenChange}>
      <RadixDialog.Portal>
        <RadixDialog.Overlay className="dialog-overlay" />
        <RadixDialog.Content className="dialog" {...(description ? {} : { 'aria-describedby': undefined })}>
          <RadixDialog.Title className="dialog__title">{title}</RadixDialog.Title>
          {description ? <RadixDialog.Description className="dialog__description">{description}</RadixDialog.Description> : null}
          <div className="dialog__body">{children}</div>
          <RadixDialog.Close className="dialog__close" aria-label="Close">
            <span aria-hidden="true">×</span>
          </RadixDialog.Close>
        </RadixDialog.Content>
      </RadixDialog.Portal>
    </RadixDialog.Root>
  );
}

/** Closes the surrounding dialog (e.g. a Cancel button). */
export const DialogClose = RadixDialog.Close;
