import type { ReactNode } from 'react';
import * as RadixTooltip from '@radix-ui/react-tooltip';

/**
 * A tooltip on any focusable element; delays come from the app's TooltipProvider (700 ms,
 * 300 ms skip). The trigger must be focusable so keyboard users see it too.
 */
export function Tooltip({ content, children, side = 'top' }: { content: ReactNode; children: ReactNode; side?: 'top' | 'right' | 'bottom' | 'left' }) {
  return (
    <RadixTooltip.Root>
      <RadixTooltip.Trigger asChild>{children}</RadixTooltip.Trigger>
      <RadixTooltip.Portal>
        <RadixTooltip.Content className="tooltip" side={side} sideOffset={6}>
          {content}
          <RadixTooltip.Arrow className="tooltip__arrow" />
        </RadixTooltip.Content>
      </RadixTooltip.Portal>
    </RadixTooltip.Root>
  );
}
