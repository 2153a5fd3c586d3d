import { stripControls } from './strip-controls.js';
import type { Style } from './terminal.js';

/**
 * The line that says tools go through the XML protocol from the start: the protocol is `auto` and the
 * model (`provider:model`) has no native tool calling.
 */
export function xmlProtocolChosenLine(model: string, style: Style): string {
  return style.dim(`⇄ Tools go through the XML protocol: ${stripControls(model)} has no native tool calling.`);
}

/** The line that says the session switched to the XML protocol because the server rejected native tools. */
export function protocolSwitchLine(style: Style): string {
  return style.yellow('⇄ The server rejected native tool calls: tools go through the XML protocol from now on.');
}
