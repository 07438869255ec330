// A source path split for display: the file name first (what tells rows apart), then its
// folder; the full path goes in the tooltip. A folder splits again into the part that may be cut
// (its start) and its last part, kept as long as there is room.

export function splitSource(source: string): { name: string; folder: string } {
  const at = source.lastIndexOf('/');
  return at < 0 ? { name: source, folder: '' } : { name: source.slice(at + 1), folder: source.slice(0, at) };
}

/** "pages/benefits/leave" → head "pages/benefits/", tail "leave/"; a one-part folder is all tail. */
export function splitFolder(folder: string): { head: string; tail: string } {
  if (!folder) return { head: '', tail: '' };
  const at = folder.lastIndexOf('/');
  return at < 0
    ? { head: '', tail: `${folder}/` }
    : { head: folder.slice(0, at + 1), tail: `${folder.slice(at + 1)}/` };
}
