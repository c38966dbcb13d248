#!/usr/bin/python3
"""Checks the Kubernetes manifests of a Markdown page against Kubernetes' own API types.

Usage: k8s_manifests_check.py PAGE.md

Every ```yaml block of the page whose first line is "# NAME.yaml: ..." is a manifest. Each of
its documents must be an object of a Kubernetes API (apiVersion and kind name a model of the
official Python client, Debian's python3-kubernetes, generated from Kubernetes' OpenAPI
schema), with every field known to its type (the client itself accepts unknown fields; a
misspelt key would be dropped by a real cluster, so it is refused here), every value of its
type, and every required field present (the client's own deserialiser checks those). Prints,
as JSON, each manifest's objects: kind, name and each container's command; exits 1 naming the
file and the field at the first problem.
"""
import json
import re
import sys

import yaml
from kubernetes import client
from kubernetes.client import models

PRIMITIVES = {"str": str, "int": int, "bool": bool, "float": (int, float), "object": object,
              "datetime": str, "date": str}


class Problem(Exception):
    pass


def check(value, type_name, path):
    """Raises Problem naming `path` when `value` is not a `type_name` of the client's models."""
    if value is None:
        return
    if type_name.startswith("list["):
        if not isinstance(value, list):
            raise Problem(f"{path} must be a list")
        for i, item in enumerate(value):
            check(item, type_name[5:-1], f"{path}[{i}]")
        return
    if type_name.startswith("dict("):
        if not isinstance(value, dict):
            raise Problem(f"{path} must be a mapping")
        inner = type_name[5:-1].split(", ", 1)[1]
        for key, item in value.items():
            check(item, inner, f"{path}.{key}")
        return
    if type_name in PRIMITIVES:
        if type_name == "int" and isinstance(value, bool) or not isinstance(value, PRIMITIVES[type_name]):
            raise Problem(f"{path} must be {type_name} (got {value!r})")
        return
    model = getattr(models, type_name)
    if not isinstance(value, dict):
        raise Problem(f"{path} must be a {type_name} object")
    fields = {json_name: model.openapi_types[attr] for attr, json_name in model.attribute_map.items()}
    for key, item in value.items():
        if key not in fields:
            raise Problem(f"{path}.{key} is not a field of {type_name} "
                          f"(fields: {', '.join(sorted(fields))})")
        check(item, fields[key], f"{path}.{key}")


def model_name(document):
    api_version, kind = document.get("apiVersion", ""), document.get("kind", "")
    version = api_version.split("/")[-1]
    name = version[:1].upper() + version[1:] + kind
    if not hasattr(models, name):
        raise Problem(f"apiVersion {api_version!r} kind {kind!r} is no Kubernetes object")
    return name


def main():
    page = open(sys.argv[1], encoding="utf-8").read()
    api = client.ApiClient()
    result = {}
    for block in re.findall(r"```yaml\n(.*?)```", page, re.S):
        match = re.match(r"# ([\w.-]+\.yaml):", block)
        if not match:
            continue
        name = match.group(1)
        objects = []
        try:
            for document in yaml.safe_load_all(block):
                type_name = model_name(document)
                check(document, type_name, name)
                try:  # the client's own checks: required fields, allowed values
                    api._ApiClient__deserialize(document, type_name)
                except ValueError as e:
                    raise Problem(f"{name}: {e}")
                pod = document.get("spec", {}).get("template", {}).get("spec", {})
                objects.append({"kind": document["kind"], "name": document["metadata"]["name"],
                                "commands": [c.get("command", []) for c in pod.get("containers", [])]})
        except Problem as e:
            print(f"k8s_manifests_check: {e}", file=sys.stderr)
            return 1
        result[name] = objects
    print(json.dumps(result, indent=2))
    return 0


if __name__ == "__main__":
    sys.exit(main())
