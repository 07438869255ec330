// Counts in the product's sentences: "1 document", "2 documents".

export function counted(n: number, one: string, many = `${one}s`): string {
  return `${n} ${n === 1 ? one : many}`;
}
