"""The graph walk shared by the scalar and tensor engines."""


def topological_order(root):
    """Every node reachable from `root`, each after all of its children.

    An explicit stack instead of recursion, so a 100 000-node chain does not hit
    Python's recursion limit; children are visited in operand order, so the
    order (and which `_backward` runs last) is the same on every run.
    """
    order, visited = [], {id(root)}
    stack = [(root, iter(root._prev))]
    while stack:
        node, children = stack[-1]
        for child in children:
            if id(child) not in visited:
                visited.add(id(child))
                stack.append((child, iter(child._prev)))
                break
        else:
            stack.pop()
            order.append(node)
    return order
