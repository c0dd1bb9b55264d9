import { useEffect } from 'react';
import { brandedTitle } from '@warmline/contracts/brands';
import type { OrderBrand } from '@warmline/contracts/orders';

/**
 * Names the browser tab after the screen and the brand it is shown under: a RingCloud buyer's
 * tabs and history say RingCloud, never WarmLine (issue 17 item 7).
 */
export function useBrandedPageTitle(title: string, brand: OrderBrand): void {
  useEffect(() => {
    document.title = brandedTitle(title, brand);
  }, [title, brand]);
}
