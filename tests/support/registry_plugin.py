"""A module whose import registers ``RegistryPlugin-v0`` in the global registry.

Used to test ``make("tests.support.registry_plugin:RegistryPlugin-v0")``, which imports this
module first. Tests drop it from ``sys.modules`` so that each import registers again.
"""

from __future__ import annotations

from vecgym.core.registration import register

PLUGIN_ENV_ID = "RegistryPlugin-v0"

register(PLUGIN_ENV_ID, entry_point="tests.support.registry_envs:ArgEnv", kwargs={"arg1": "plugin"})
