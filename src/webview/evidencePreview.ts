// The passage preview of a citation chip, behaving like a native hover: it opens while the pointer
// is over the chip or the chip has keyboard focus; it closes after a short grace delay once the
// pointer leaves (time enough to move into the preview and select its text), on blur, on Escape,
// when the chip opens its source, and when the view scrolls (unless the chip has keyboard focus
// and stays on screen: then the preview follows it) or resizes. It is placed below the
// chip, or above it when there is no room below, never over the chip. One preview is open at a
// time per document. The preview and its scrolling text are never Tab stops (a Tab stop there
// would vanish as the chip loses focus); a click puts focus in it to select text, and Escape
// from there (or from its chip) closes it and leaves focus on the chip.

/** How long a preview stays open after the pointer leaves its chip. */
export const PREVIEW_HIDE_DELAY_MS = 300;
/** Space between the chip and its preview, and between the preview and the view's edges (px). */
const GAP = 4;
const MARGIN = 4;

interface PreviewState {
  readonly chip: HTMLElement;
  readonly preview: HTMLElement;
  /** The pointer is over the chip or its preview. */
  hovered: boolean;
  /** The chip has focus from the keyboard (focus from a click does not keep a preview open). */
  keyboardFocus: boolean;
  /** A press on the chip is under way: the focus it brings is the pointer's. */
  pressed: boolean;
  /** Closed by Escape or by opening the source: stays closed until the pointer comes back or focus moves. */
  dismissed: boolean;
  hideTimer?: ReturnType<typeof setTimeout>;
}

export interface PreviewHandle {
  /** Closes the preview and keeps it closed while the pointer or focus stays on the chip. */
  dismiss(): void;
}

function isInside(container: Element, target: EventTarget | null): boolean {
  const node = target as Partial<Node> | null;
  return typeof node?.nodeType === 'number' && container.contains(target as Node);
}

export class EvidencePreviews {
  private static readonly byDocument = new WeakMap<Document, EvidencePreviews>();
  private open: PreviewState | undefined;

  /** The previews of a document (its listeners are added once, on first use). */
  static of(doc: Document): EvidencePreviews {
    let previews = EvidencePreviews.byDocument.get(doc);
    if (!previews) {
      previews = new EvidencePreviews(doc);
      EvidencePreviews.byDocument.set(doc, previews);
    }
    return previews;
  }

  private constructor(private readonly doc: Document) {
    // Capture phase: Escape closes the preview before the focused element (e.g. the input) sees it.
    doc.addEventListener(
      'keydown',
      (event) => {
        if (event.key !== 'Escape' || !this.open) return;
        event.preventDefault();
        event.stopPropagation();
        // Focus inside the preview goes back to its chip; a preview only hovered just closes.
        if (!this.closeFocused()) this.dismiss(this.open);
      },
      true,
    );
    // Scroll events do not bubble; a capturing listener sees the transcript's. Scrolling the
    // passage inside the preview keeps it open. A chip with keyboard focus keeps its preview
    // beside it while it is on screen: focusing a chip scrolls it into view.
    doc.addEventListener(
      'scroll',
      (event) => {
        const open = this.open;
        if (!open || isInside(open.preview, event.target)) return;
        if (open.keyboardFocus && this.onScreen(open.chip)) this.place(open);
        else this.close(open);
      },
      true,
    );
    doc.defaultView?.addEventListener('resize', () => {
      if (this.open) this.close(this.open);
    });
  }

  /**
   * Escape: closes the open preview when its chip has focus or focus is inside it, and leaves
   * focus on the chip. False when no open preview holds the focus (Escape then does its usual).
   */
  closeFocused(): boolean {
    const open = this.open;
    const active = this.doc.activeElement;
    if (!open || !active || (active !== open.chip && !open.preview.contains(active))) return false;
    this.dismiss(open);
    if (active !== open.chip) open.chip.focus();
    return true;
  }

  /** Wires `preview` (a child of `chip`, closed at first) to the chip's pointer and focus. */
  attach(chip: HTMLElement, preview: HTMLElement): PreviewHandle {
    const state: PreviewState = {
      chip,
      preview,
      hovered: false,
      keyboardFocus: false,
      pressed: false,
      dismissed: false,
    };
    preview.hidden = true;
    // Scrollable boxes are Tab stops in Chromium unless told otherwise: not these (see above).
    preview.tabIndex = -1;
    for (const scroller of Array.from(preview.querySelectorAll<HTMLElement>('.preview-text'))) scroller.tabIndex = -1;
    // Focus leaving the preview for somewhere outside its chip closes it (unless the pointer is on it).
    preview.addEventListener('focusout', (event) => {
      if (!isInside(chip, event.relatedTarget) && !state.hovered) this.close(state);
    });
    chip.addEventListener('mouseenter', () => {
      state.hovered = true;
      state.dismissed = false;
      this.show(state);
    });
    chip.addEventListener('mouseleave', () => {
      state.hovered = false;
      this.scheduleClose(state);
    });
    chip.addEventListener('mousedown', () => {
      state.pressed = true;
    });
    chip.addEventListener('focus', () => {
      state.keyboardFocus = !state.pressed && !state.dismissed;
      state.pressed = false;
      if (state.keyboardFocus) this.show(state);
    });
    chip.addEventListener('blur', (event) => {
      state.keyboardFocus = false;
      state.pressed = false;
      // Focus moving into the preview (to select its text) keeps it open.
      if (isInside(preview, event.relatedTarget)) return;
      // When the whole view loses focus (the source opened in an editor), the chip stays the
      // active element and gets focus back later: a dismissed preview must not reopen then.
      if (this.doc.activeElement !== chip) state.dismissed = false;
      if (!state.hovered) this.close(state);
    });
    // Clicks in the preview (selecting its text) are not clicks on the chip.
    preview.addEventListener('click', (event) => event.stopPropagation());
    return { dismiss: () => this.dismiss(state) };
  }

  private show(state: PreviewState): void {
    this.cancelClose(state);
    if (state.dismissed) return;
    if (this.open && this.open !== state) this.close(this.open);
    state.preview.hidden = false;
    this.open = state;
    this.place(state);
  }

  private dismiss(state: PreviewState): void {
    state.dismissed = true;
    state.keyboardFocus = false;
    this.close(state);
  }

  private scheduleClose(state: PreviewState): void {
    this.cancelClose(state);
    state.hideTimer = setTimeout(() => {
      state.hideTimer = undefined;
      if (!state.hovered && !state.keyboardFocus) this.close(state);
    }, PREVIEW_HIDE_DELAY_MS);
  }

  private cancelClose(state: PreviewState): void {
    if (state.hideTimer !== undefined) clearTimeout(state.hideTimer);
    state.hideTimer = undefined;
  }

  private close(state: PreviewState): void {
    this.cancelClose(state);
    state.preview.hidden = true;
    if (this.open === state) this.open = undefined;
  }

  private viewSize(): { width: number; height: number } {
    const view = this.doc.defaultView;
    return {
      width: this.doc.documentElement.clientWidth || view?.innerWidth || 0,
      height: this.doc.documentElement.clientHeight || view?.innerHeight || 0,
    };
  }

  private onScreen(chip: HTMLElement): boolean {
    const { top, bottom } = chip.getBoundingClientRect();
    return bottom > 0 && top < this.viewSize().height;
  }

  /** Fixed position beside the chip: below it, or above it when the room below is too small. */
  private place({ chip, preview }: PreviewState): void {
    const { width: viewWidth, height: viewHeight } = this.viewSize();
    const style = preview.style;
    style.maxHeight = '';
    style.left = '0px';
    style.top = '0px';
    const anchor = chip.getBoundingClientRect();
    const size = preview.getBoundingClientRect();
    const below = viewHeight - anchor.bottom - GAP - MARGIN;
    const above = anchor.top - GAP - MARGIN;
    const placeAbove = size.height > below && above > below;
    const room = Math.max(placeAbove ? above : below, 0);
    const height = Math.min(size.height, room);
    if (size.height > room) style.maxHeight = `${room}px`;
    style.top = `${placeAbove ? anchor.top - GAP - height : anchor.bottom + GAP}px`;
    style.left = `${Math.max(MARGIN, Math.min(anchor.left, viewWidth - size.width - MARGIN))}px`;
    preview.dataset.placement = placeAbove ? 'above' : 'below';
  }
}
