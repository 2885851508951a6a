// `billvend account tree <id>` (docs/operations.md "Command line"): the answer of GET /admin/accounts/{id}/tree
// printed for a person, one account a line, indented by level, with its status and balances in naira. --json
// prints the answer's data as every other command does.
import type { TreeNodeView } from './account-tree-routes.js';
import { format_naira } from '../lib/money.js';

export interface TreeAnswer {
  tree: TreeNodeView;
  nodes: number;
  limit: number;
  truncated: boolean;
}

/** Naira as the API writes it (a JSON number with at most 2 decimals), in kobo for format_naira. */
function naira_text(naira: number): string {
  return format_naira(Math.round(naira * 100));
}

function node_lines(node: TreeNodeView, indent: string, out: string[]): void {
  const { live, test } = node.balances;
  out.push(`${indent}${node.name} (account ${node.id})  ${node.status}  live ${naira_text(live.balance)}  test ${naira_text(test.balance)}`);
  for (const child of node.children) node_lines(child, `${indent}  `, out);
  const hidden = node.agents_count - node.children.length;
  if (hidden > 0) out.push(`${indent}  … ${hidden} more agent${hidden === 1 ? '' : 's'} not shown`);
}

export function render_tree(data: unknown): string {
  const answer = data as TreeAnswer;
  const out: string[] = [];
  node_lines(answer.tree, '', out);
  out.push(answer.truncated
    ? `${answer.nodes} accounts shown, truncated at --limit ${answer.limit} (at most 1000): level by level, the deepest left out first`
    : `${answer.nodes} account${answer.nodes === 1 ? '' : 's'}`);
  return out.join('\n') + '\n';
}
