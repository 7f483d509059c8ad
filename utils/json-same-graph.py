#!/usr/bin/env python3
"""Exits 0 when two contest JSON files hold the same nodes (every field) and
the same edges, in any order; prints the first difference otherwise."""
import json
import sys


def load(path):
    with open(path) as f:
        data = json.load(f)
    nodes = {}
    for node in data["Nodes"]:
        if node["Id"] in nodes:
            sys.exit(f"{path}: duplicate node {node['Id']}")
        nodes[node["Id"]] = node
    edges = sorted(tuple(e) for e in data["Edges"])
    return nodes, edges


a_nodes, a_edges = load(sys.argv[1])
b_nodes, b_edges = load(sys.argv[2])
if a_nodes.keys() != b_nodes.keys():
    sys.exit(f"node ids differ: {sorted(a_nodes.keys() ^ b_nodes.keys())[:10]}")
for node_id, node in a_nodes.items():
    if node != b_nodes[node_id]:
        sys.exit(f"node {node_id} differs: {node} vs {b_nodes[node_id]}")
if a_edges != b_edges:
    sys.exit(f"edges differ: {len(a_edges)} vs {len(b_edges)}")
print(f"same graph: {len(a_nodes)} nodes, {len(a_edges)} edges")
