"""The graph walk shared by the scalar and tensor engines."""


def topological_order(root):
    """Every node reachable from `root`, each after all of its children.

    An explicit stack instead of recursion, so a 100 000-node chain does not hit
    Python's recursion limit; children are visited in operand order, so the
    order (and which `_backward` runs last) is the same on every run. Nodes
    hash by identity (Value and Tensor define no __eq__), so the set holds
    them directly: calling id() per edge was a third of a scalar step. Leaves
    (weights, inputs, constants: half the nodes of an MLP's graph) go straight
    into the order without a stack entry, which is the same order, cheaper.
    """
    order, visited = [], {root}
    stack = [(root, iter(root._prev))]
    while stack:
        node, children = stack[-1]
        for child in children:
            if child not in visited:
                visited.add(child)
                if child._prev:
                    stack.append((child, iter(child._prev)))
                    break
                order.append(child)  # a leaf waits for nothing: no stack frame for it
        else:
            stack.pop()
            order.append(node)
    return order
