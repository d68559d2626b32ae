/**
 * A text from outside (an id, a reason, a note, a label, or a sentence of the service quoting
 * them) isolated so its direction cannot reorder the page around it, with every hidden control
 * or format character shown as a marker (../text.ts): in its own <bdi>, or, as a link's whole
 * text, in the link itself (`UserLink`, isolated by the `user-text` class and dir="auto").
 */
import { marker, textParts } from '../text.js';

/** The text's plain runs and its hidden characters as marked code points, with no element around them. */
export function TextParts({ text }: { text: string }) {
  return (
    <>
      {textParts(text).map((part, i) =>
        'text' in part ? (
          part.text
        ) : (
          <span key={i} class="hidden-char" title={`hidden character ${part.code}`}>
            {marker(part.code)}
          </span>
        ),
      )}
    </>
  );
}

export function UserText({ text }: { text: string }) {
  return (
    <bdi class="user-text">
      <TextParts text={text} />
    </bdi>
  );
}

/** A link whose whole text comes from outside (a player id): the link is the isolate. */
export function UserLink({ href, text }: { href: string; text: string }) {
  return (
    <a href={href} class="user-text" dir="auto">
      <TextParts text={text} />
    </a>
  );
}
