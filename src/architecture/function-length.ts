import ts from 'typescript';
import type { SourceFile } from './source-tree.ts';

// How long each function of a file is, read with the TypeScript parser: a
// function is anything with a body (declarations, methods, arrows, function
// expressions, accessors, constructors), named by where it stands.

export interface FunctionLength {
  /** `<path>:<name>`, the name qualified by its class or enclosing function. */
  where: string;
  /** Lines from the function's first line to its last, both counted. */
  lines: number;
}

export function functionLengths(file: SourceFile): FunctionLength[] {
  const source = ts.createSourceFile(file.path, file.text, ts.ScriptTarget.Latest, true, ts.ScriptKind.TS);
  const out: FunctionLength[] = [];
  const visit = (node: ts.Node, scope: string[]) => {
    if (ts.isFunctionLike(node) && 'body' in node && node.body) {
      const name = nameOf(node, source);
      const start = source.getLineAndCharacterOfPosition(node.getStart(source)).line;
      const end = source.getLineAndCharacterOfPosition(node.getEnd()).line;
      const inner = [...scope, name];
      out.push({ where: `${file.path}:${inner.join('.')}`, lines: end - start + 1 });
      ts.forEachChild(node, (child) => visit(child, inner));
      return;
    }
    if (ts.isClassLike(node)) {
      const inner = [...scope, node.name?.text ?? '(class)'];
      ts.forEachChild(node, (child) => visit(child, inner));
      return;
    }
    ts.forEachChild(node, (child) => visit(child, scope));
  };
  visit(source, []);
  return out;
}

/** A function's name: its own, or the variable, property or call argument it is given to. */
function nameOf(node: ts.SignatureDeclaration, source: ts.SourceFile): string {
  if (node.name) return node.name.getText(source);
  if (ts.isConstructorDeclaration(node)) return 'constructor';
  const parent = node.parent;
  if (ts.isVariableDeclaration(parent) || ts.isPropertyAssignment(parent) || ts.isPropertyDeclaration(parent))
    return parent.name.getText(source);
  if (ts.isCallExpression(parent)) {
    const callee = parent.expression.getText(source).replace(/\s+/g, '');
    const first = parent.arguments[0];
    const label = first && ts.isStringLiteralLike(first) ? ` ${first.text}` : '';
    return `(${callee.slice(0, 40)}${label})`;
  }
  return '(anonymous)';
}
