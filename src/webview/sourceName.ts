// A source path split for display: the file name first (what tells rows apart), then its
// folder; the full path goes in the tooltip.

export function splitSource(source: string): { name: string; folder: string } {
  const at = source.lastIndexOf('/');
  return at < 0 ? { name: source, folder: '' } : { name: source.slice(at + 1), folder: source.slice(0, at) };
}
