"""Importers: other tools' job descriptions turned into mpigen specs (pure functions)."""
