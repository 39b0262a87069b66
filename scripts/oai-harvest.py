"""Harvests an OAI-PMH provider with Sickle, as an aggregator would, for the tests.

Usage: oai-harvest.py '<json>', the JSON naming url, token (a bearer token, or null), method
(GET or POST), verb (ListRecords or ListIdentifiers) and params (metadataPrefix, set, from, until).
Prints one JSON object: every record or header harvested, in order, as {id, deleted, sets, title},
and the error code the provider answered with, if any.
"""
import json
import sys

from sickle import Sickle
from sickle import oaiexceptions

# The protocol's error conditions, as Sickle raises them: each a class of its own.
PROTOCOL_ERRORS = tuple(
    value for value in vars(oaiexceptions).values() if isinstance(value, type) and issubclass(value, Exception)
)


def main():
    args = json.loads(sys.argv[1])
    headers = {} if args.get("token") is None else {"Authorization": "Bearer " + args["token"]}
    sickle = Sickle(args["url"], http_method=args.get("method", "GET"), headers=headers, timeout=120)
    verb = args["verb"]
    entries = []
    error = None
    try:
        for item in getattr(sickle, verb)(**args["params"]):
            header = item if verb == "ListIdentifiers" else item.header
            metadata = getattr(item, "metadata", None) or {}
            titles = metadata.get("title") or [None]
            entries.append(
                {
                    "id": header.identifier,
                    "deleted": header.deleted,
                    "sets": header.setSpecs,
                    "title": titles[0],
                }
            )
    except PROTOCOL_ERRORS as failure:
        error = type(failure).__name__
    json.dump({"entries": entries, "error": error}, sys.stdout)


if __name__ == "__main__":
    main()
