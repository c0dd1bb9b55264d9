/// <reference lib="webworker" />
import { create } from 'canvas-confetti';
import type { ConfettiMessage } from './confetti';

/**
 * Draws the confetti off the main thread (src/lib/confetti.ts): the page hands over its canvas
 * (an OffscreenCanvas) and then the bursts. A worker script of our own, served from /assets like
 * the rest of the build, where the library's own worker (a blob: URL) is refused by the CSP.
 */
let canvas: OffscreenCanvas | undefined;
let cannon: ReturnType<typeof create> | undefined;

self.onmessage = (event: MessageEvent<ConfettiMessage>) => {
  const message = event.data;
  if (message.kind === 'canvas') {
    canvas = message.canvas;
    // The library reads only width, height and getContext of the canvas it is given.
    cannon = create(canvas as unknown as HTMLCanvasElement, { resize: false });
  } else if (message.kind === 'size' && canvas) {
    canvas.width = message.width;
    canvas.height = message.height;
  } else if (message.kind === 'burst' && cannon) {
    void cannon(message.options);
  }
};
