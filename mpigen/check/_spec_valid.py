"""Generated from schemas/mpigen.dev/trainingjob_v1alpha1.json by mpigen/check/schemagen.py: do not edit.

Regenerate with `python -m mpigen.check.schemagen`; a test fails while this file is stale.
"""
# fmt: off
import re as _re

SCHEMA = 'mpigen.dev/trainingjob_v1alpha1.json'
FINGERPRINT = (27080, 1125508408)


class _Pattern:
    """A regular expression compiled when first used (most specs use few of them)."""

    __slots__ = ("source", "compiled")

    def __init__(self, source):
        self.source, self.compiled = source, None

    def search(self, text):
        if self.compiled is None:
            self.compiled = _re.compile(self.source)
        return self.compiled.search(text)


def _unbool(x):
    if x is True:
        return ("bool", True)
    if x is False:
        return ("bool", False)
    return x


def _equal(a, b):
    """JSON equality as python-jsonschema's enum and const compare (true is not 1)."""
    if a is b:
        return True
    if type(a) is str or type(b) is str:
        return a == b
    if type(a) is list and type(b) is list:
        return len(a) == len(b) and all(_equal(x, y) for x, y in zip(a, b))
    if type(a) is dict and type(b) is dict:
        return a.keys() == b.keys() and all(_equal(a[k], b[k]) for k in a)
    return _unbool(a) == _unbool(b)

_C1 = frozenset(['apiVersion', 'kind', 'metadata', 'spec'])
_C3 = frozenset(['mpigen.dev/v1alpha1'])
_C5 = frozenset(['TrainingJob'])
_C7 = frozenset(['name'])
_P9 = _Pattern('^[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*$')
_P11 = _Pattern('^[a-z0-9]([-a-z0-9]*[a-z0-9])?$')
_C13 = frozenset([])
_C17 = frozenset(['annotations', 'labels', 'name', 'namespace'])
_C22 = frozenset(['mpi', 'pytorch', 'tensorflow'])
_C25 = frozenset(['Always', 'IfNotPresent', 'Never'])
_P36 = _Pattern('^[0-9]+$')
_C43 = frozenset(['cpu', 'gpu', 'memory'])
_P48 = _Pattern('^([A-Za-z0-9][-A-Za-z0-9_.]*/)?[A-Za-z0-9]([-A-Za-z0-9_.]*[A-Za-z0-9])?$')
_C58 = frozenset(['Equal', 'Exists'])
_C61 = frozenset(['NoExecute', 'NoSchedule', 'PreferNoSchedule'])
_C63 = frozenset(['effect', 'key', 'operator', 'tolerationSeconds', 'value'])
_C66 = frozenset(['Intel', 'MPICH', 'OpenMPI'])
_P71 = _Pattern('^/')
_C73 = frozenset(['AtStartup', 'WaitForWorkersReady'])
_C79 = frozenset(['image', 'priorityClassName', 'resources'])
_C80 = frozenset(['extraArgs', 'implementation', 'launcher', 'launcherCreationPolicy', 'mpirun', 'runLauncherAsWorker', 'sshAuthMountPath'])
_C83 = frozenset(['kube-batch', 'kueue', 'none', 'scheduler-plugins', 'volcano'])
_C91 = frozenset(['gang', 'gpuTopology', 'minAvailable', 'minResources', 'priorityClass', 'queue', 'scheduleTimeoutSeconds', 'schedulerName'])
_C94 = frozenset(['All', 'None', 'Running'])
_C99 = frozenset(['activeDeadlineSeconds', 'backoffLimit', 'cleanPodPolicy', 'suspend', 'ttlSecondsAfterFinished'])
_C105 = frozenset(['secretKeyRef'])
_C107 = frozenset(['key', 'name'])
_P111 = _Pattern('^[-._a-zA-Z][-._a-zA-Z0-9]*$')
_C114 = frozenset(['mountPath'])
_P121 = _Pattern('^[a-z]([-a-z0-9]*[a-z0-9])?$')
_C122 = frozenset(['claimName', 'hostPath', 'mountPath', 'name', 'readOnly', 'subPath'])
_C129 = frozenset(['Always', 'ExitCode', 'Never', 'OnFailure'])
_C136 = frozenset(['master', 'port'])
_C144 = frozenset(['image', 'priorityClassName', 'replicas', 'resources'])
_C153 = frozenset(['chief', 'evaluator', 'port', 'ps'])
_C159 = frozenset(['ClusterIP', 'NodePort'])
_C160 = frozenset(['image', 'logDir', 'port', 'serviceType'])
_C170 = frozenset(['depth', 'password', 'repository', 'revision', 'secret', 'username'])
_C174 = frozenset(['image', 'source'])
_C175 = frozenset(['git', 'mountPath', 'rsync'])
_C179 = frozenset(['command', 'framework', 'image', 'workers'])
_C183 = frozenset(['annotations', 'code', 'command', 'env', 'framework', 'image', 'imagePullPolicy', 'imagePullSecrets', 'labels', 'mpi', 'nodeSelector', 'priorityClassName', 'pytorch', 'resources', 'restartPolicy', 'runPolicy', 'scheduling', 'serviceAccountName', 'shmSize', 'slotsPerWorker', 'tensorboard', 'tensorflow', 'tolerations', 'volumes', 'workers', 'workingDir'])
_P185 = _Pattern('^[a-z0-9]([-a-z0-9_.]*[a-z0-9])?$')
_C186 = frozenset(['annotations', 'code', 'command', 'env', 'environments', 'framework', 'image', 'imagePullPolicy', 'imagePullSecrets', 'labels', 'mpi', 'nodeSelector', 'priorityClassName', 'pytorch', 'resources', 'restartPolicy', 'runPolicy', 'scheduling', 'serviceAccountName', 'shmSize', 'slotsPerWorker', 'tensorboard', 'tensorflow', 'tolerations', 'volumes', 'workers', 'workingDir'])

def _prop2(v):
    if not (type(v) is str and v in _C3):
        return False
    return True


def _prop4(v):
    if not (type(v) is str and v in _C5):
        return False
    return True


def _prop8(v):
    if not (type(v) is str):
        return False
    if type(v) is str and (len(v) < 1 or len(v) > 253 or _P9.search(v) is None):
        return False
    return True


def _prop10(v):
    if not (type(v) is str):
        return False
    if type(v) is str and (len(v) > 63 or _P11.search(v) is None):
        return False
    return True


def _extra14(v):
    if not (type(v) is str):
        return False
    return True


def _prop12(v):
    if not (type(v) is dict):
        return False
    if type(v) is dict:
        for k, x in v.items():
            if k not in _C13 and not _extra14(x):
                return False
    return True


def _extra16(v):
    if not (type(v) is str):
        return False
    return True


def _prop15(v):
    if not (type(v) is dict):
        return False
    if type(v) is dict:
        for k, x in v.items():
            if k not in _C13 and not _extra16(x):
                return False
    return True


def _prop6(v):
    if not (type(v) is dict):
        return False
    if type(v) is dict:
        if not _C7.issubset(v):
            return False
        if 'name' in v and not _prop8(v['name']):
            return False
        if 'namespace' in v and not _prop10(v['namespace']):
            return False
        if 'labels' in v and not _prop12(v['labels']):
            return False
        if 'annotations' in v and not _prop15(v['annotations']):
            return False
        if not _C17.issuperset(v):
            return False
    return True


def _prop21(v):
    if not (type(v) is str and v in _C22):
        return False
    return True


def _prop23(v):
    if not (type(v) is str):
        return False
    if type(v) is str and (len(v) < 1):
        return False
    return True


def _prop24(v):
    if not (type(v) is str and v in _C25):
        return False
    return True


def _item27(v):
    if not (type(v) is str):
        return False
    if type(v) is str and (len(v) < 1):
        return False
    return True


def _prop26(v):
    if not (type(v) is list):
        return False
    if type(v) is list and not all(map(_item27, v)):
        return False
    return True


def _item29(v):
    if not (type(v) is str):
        return False
    return True


def _prop28(v):
    if not (type(v) is list):
        return False
    if type(v) is list and (len(v) < 1):
        return False
    if type(v) is list and not all(map(_item29, v)):
        return False
    return True


def _prop30(v):
    if not ((type(v) is int or (type(v) is float and v.is_integer()))):
        return False
    if (type(v) is int or type(v) is float):
        if v < 0:
            return False
        if v > 2147483647:
            return False
    return True


def _any34(v):
    if not ((type(v) is int or (type(v) is float and v.is_integer()))):
        return False
    if (type(v) is int or type(v) is float):
        if v < 0:
            return False
    return True


def _any35(v):
    if not (type(v) is str):
        return False
    if type(v) is str and (_P36.search(v) is None):
        return False
    return True


def _prop33(v):
    if not (_any34(v) or _any35(v)):
        return False
    return True


def _any38(v):
    if not (type(v) is str):
        return False
    if type(v) is str and (len(v) < 1):
        return False
    return True


def _any39(v):
    if not ((type(v) is int or type(v) is float)):
        return False
    return True


def _prop37(v):
    if not (_any38(v) or _any39(v)):
        return False
    return True


def _any41(v):
    if not (type(v) is str):
        return False
    if type(v) is str and (len(v) < 1):
        return False
    return True


def _any42(v):
    if not ((type(v) is int or type(v) is float)):
        return False
    return True


def _prop40(v):
    if not (_any41(v) or _any42(v)):
        return False
    return True


def _any45(v):
    if not (type(v) is str):
        return False
    if type(v) is str and (len(v) < 1):
        return False
    return True


def _any46(v):
    if not ((type(v) is int or type(v) is float)):
        return False
    return True


def _extra44(v):
    if not (_any45(v) or _any46(v)):
        return False
    return True


def _names47(v):
    if type(v) is str and (_P48.search(v) is None):
        return False
    return True


def _ref32(v):
    if not (type(v) is dict):
        return False
    if type(v) is dict:
        if 'gpu' in v and not _prop33(v['gpu']):
            return False
        if 'cpu' in v and not _prop37(v['cpu']):
            return False
        if 'memory' in v and not _prop40(v['memory']):
            return False
        for k, x in v.items():
            if k not in _C43 and not _extra44(x):
                return False
        if not all(map(_names47, v)):
            return False
    return True


def _prop31(v):
    if not _ref32(v):
        return False
    return True


def _prop49(v):
    if not ((type(v) is int or (type(v) is float and v.is_integer()))):
        return False
    if (type(v) is int or type(v) is float):
        if v < 1:
            return False
        if v > 2147483647:
            return False
    return True


def _prop50(v):
    if not (type(v) is str):
        return False
    return True


def _prop51(v):
    if not (type(v) is str):
        return False
    return True


def _extra53(v):
    if not (type(v) is str):
        return False
    return True


def _prop52(v):
    if not (type(v) is dict):
        return False
    if type(v) is dict:
        for k, x in v.items():
            if k not in _C13 and not _extra53(x):
                return False
    return True


def _prop56(v):
    if not (type(v) is str):
        return False
    return True


def _prop57(v):
    if not (type(v) is str and v in _C58):
        return False
    return True


def _prop59(v):
    if not (type(v) is str):
        return False
    return True


def _prop60(v):
    if not (type(v) is str and v in _C61):
        return False
    return True


def _prop62(v):
    if not ((type(v) is int or (type(v) is float and v.is_integer()))):
        return False
    return True


def _item55(v):
    if not (type(v) is dict):
        return False
    if type(v) is dict:
        if 'key' in v and not _prop56(v['key']):
            return False
        if 'operator' in v and not _prop57(v['operator']):
            return False
        if 'value' in v and not _prop59(v['value']):
            return False
        if 'effect' in v and not _prop60(v['effect']):
            return False
        if 'tolerationSeconds' in v and not _prop62(v['tolerationSeconds']):
            return False
        if not _C63.issuperset(v):
            return False
    return True


def _prop54(v):
    if not (type(v) is list):
        return False
    if type(v) is list and not all(map(_item55, v)):
        return False
    return True


def _prop65(v):
    if not (type(v) is str and v in _C66):
        return False
    return True


def _item68(v):
    if not (type(v) is str):
        return False
    return True


def _prop67(v):
    if not (type(v) is list):
        return False
    if type(v) is list and not all(map(_item68, v)):
        return False
    return True


def _prop69(v):
    if not (type(v) is bool):
        return False
    return True


def _prop70(v):
    if not (type(v) is str):
        return False
    if type(v) is str and (_P71.search(v) is None):
        return False
    return True


def _prop72(v):
    if not (type(v) is str and v in _C73):
        return False
    return True


def _prop74(v):
    if not (type(v) is bool):
        return False
    return True


def _prop76(v):
    if not (type(v) is str):
        return False
    if type(v) is str and (len(v) < 1):
        return False
    return True


def _prop77(v):
    if not _ref32(v):
        return False
    return True


def _prop78(v):
    if not (type(v) is str):
        return False
    return True


def _prop75(v):
    if not (type(v) is dict):
        return False
    if type(v) is dict:
        if 'image' in v and not _prop76(v['image']):
            return False
        if 'resources' in v and not _prop77(v['resources']):
            return False
        if 'priorityClassName' in v and not _prop78(v['priorityClassName']):
            return False
        if not _C79.issuperset(v):
            return False
    return True


def _prop64(v):
    if not (type(v) is dict):
        return False
    if type(v) is dict:
        if 'implementation' in v and not _prop65(v['implementation']):
            return False
        if 'extraArgs' in v and not _prop67(v['extraArgs']):
            return False
        if 'mpirun' in v and not _prop69(v['mpirun']):
            return False
        if 'sshAuthMountPath' in v and not _prop70(v['sshAuthMountPath']):
            return False
        if 'launcherCreationPolicy' in v and not _prop72(v['launcherCreationPolicy']):
            return False
        if 'runLauncherAsWorker' in v and not _prop74(v['runLauncherAsWorker']):
            return False
        if 'launcher' in v and not _prop75(v['launcher']):
            return False
        if not _C80.issuperset(v):
            return False
    return True


def _prop82(v):
    if not (type(v) is str and v in _C83):
        return False
    return True


def _prop84(v):
    if not (type(v) is str):
        return False
    if type(v) is str and (len(v) < 1):
        return False
    return True


def _prop85(v):
    if not (type(v) is str):
        return False
    return True


def _prop86(v):
    if not (type(v) is str):
        return False
    return True


def _prop87(v):
    if not ((type(v) is int or (type(v) is float and v.is_integer()))):
        return False
    if (type(v) is int or type(v) is float):
        if v < 0:
            return False
        if v > 2147483647:
            return False
    return True


def _prop88(v):
    if not _ref32(v):
        return False
    return True


def _prop89(v):
    if not ((type(v) is int or (type(v) is float and v.is_integer()))):
        return False
    if (type(v) is int or type(v) is float):
        if v < 0:
            return False
        if v > 2147483647:
            return False
    return True


def _prop90(v):
    if not (type(v) is bool):
        return False
    return True


def _prop81(v):
    if not (type(v) is dict):
        return False
    if type(v) is dict:
        if 'gang' in v and not _prop82(v['gang']):
            return False
        if 'schedulerName' in v and not _prop84(v['schedulerName']):
            return False
        if 'queue' in v and not _prop85(v['queue']):
            return False
        if 'priorityClass' in v and not _prop86(v['priorityClass']):
            return False
        if 'minAvailable' in v and not _prop87(v['minAvailable']):
            return False
        if 'minResources' in v and not _prop88(v['minResources']):
            return False
        if 'scheduleTimeoutSeconds' in v and not _prop89(v['scheduleTimeoutSeconds']):
            return False
        if 'gpuTopology' in v and not _prop90(v['gpuTopology']):
            return False
        if not _C91.issuperset(v):
            return False
    return True


def _prop93(v):
    if not (type(v) is str and v in _C94):
        return False
    return True


def _prop95(v):
    if not ((type(v) is int or (type(v) is float and v.is_integer()))):
        return False
    if (type(v) is int or type(v) is float):
        if v < 0:
            return False
        if v > 2147483647:
            return False
    return True


def _prop96(v):
    if not ((type(v) is int or (type(v) is float and v.is_integer()))):
        return False
    if (type(v) is int or type(v) is float):
        if v < 0:
            return False
        if v > 9223372036854775807:
            return False
    return True


def _prop97(v):
    if not ((type(v) is int or (type(v) is float and v.is_integer()))):
        return False
    if (type(v) is int or type(v) is float):
        if v < 0:
            return False
        if v > 2147483647:
            return False
    return True


def _prop98(v):
    if not (type(v) is bool):
        return False
    return True


def _prop92(v):
    if not (type(v) is dict):
        return False
    if type(v) is dict:
        if 'cleanPodPolicy' in v and not _prop93(v['cleanPodPolicy']):
            return False
        if 'ttlSecondsAfterFinished' in v and not _prop95(v['ttlSecondsAfterFinished']):
            return False
        if 'activeDeadlineSeconds' in v and not _prop96(v['activeDeadlineSeconds']):
            return False
        if 'backoffLimit' in v and not _prop97(v['backoffLimit']):
            return False
        if 'suspend' in v and not _prop98(v['suspend']):
            return False
        if not _C99.issuperset(v):
            return False
    return True


def _any102(v):
    if not (type(v) is str):
        return False
    return True


def _any103(v):
    if not ((type(v) is int or (type(v) is float and v.is_integer()))):
        return False
    return True


def _prop108(v):
    if not (type(v) is str):
        return False
    if type(v) is str and (len(v) < 1):
        return False
    return True


def _prop109(v):
    if not (type(v) is str):
        return False
    if type(v) is str and (len(v) < 1):
        return False
    return True


def _prop106(v):
    if not (type(v) is dict):
        return False
    if type(v) is dict:
        if not _C107.issubset(v):
            return False
        if 'name' in v and not _prop108(v['name']):
            return False
        if 'key' in v and not _prop109(v['key']):
            return False
        if not _C107.issuperset(v):
            return False
    return True


def _any104(v):
    if not (type(v) is dict):
        return False
    if type(v) is dict:
        if not _C105.issubset(v):
            return False
        if 'secretKeyRef' in v and not _prop106(v['secretKeyRef']):
            return False
        if not _C105.issuperset(v):
            return False
    return True


def _extra101(v):
    if not (_any102(v) or _any103(v) or _any104(v)):
        return False
    return True


def _names110(v):
    if type(v) is str and (_P111.search(v) is None):
        return False
    return True


def _prop100(v):
    if not (type(v) is dict):
        return False
    if type(v) is dict:
        for k, x in v.items():
            if k not in _C13 and not _extra101(x):
                return False
        if not all(map(_names110, v)):
            return False
    return True


def _prop115(v):
    if not (type(v) is str):
        return False
    if type(v) is str and (len(v) < 1):
        return False
    return True


def _prop116(v):
    if not (type(v) is str):
        return False
    if type(v) is str and (_P71.search(v) is None):
        return False
    return True


def _prop117(v):
    if not (type(v) is str):
        return False
    if type(v) is str and (_P71.search(v) is None):
        return False
    return True


def _prop118(v):
    if not (type(v) is bool):
        return False
    return True


def _prop119(v):
    if not (type(v) is str):
        return False
    return True


def _prop120(v):
    if not (type(v) is str):
        return False
    if type(v) is str and (len(v) > 63 or _P121.search(v) is None):
        return False
    return True


def _item113(v):
    if not (type(v) is dict):
        return False
    if type(v) is dict:
        if not _C114.issubset(v):
            return False
        if 'claimName' in v and not _prop115(v['claimName']):
            return False
        if 'hostPath' in v and not _prop116(v['hostPath']):
            return False
        if 'mountPath' in v and not _prop117(v['mountPath']):
            return False
        if 'readOnly' in v and not _prop118(v['readOnly']):
            return False
        if 'subPath' in v and not _prop119(v['subPath']):
            return False
        if 'name' in v and not _prop120(v['name']):
            return False
        if not _C122.issuperset(v):
            return False
    return True


def _prop112(v):
    if not (type(v) is list):
        return False
    if type(v) is list and not all(map(_item113, v)):
        return False
    return True


def _prop123(v):
    if not (type(v) is str):
        return False
    if type(v) is str and (_P71.search(v) is None):
        return False
    return True


def _extra125(v):
    if not (type(v) is str):
        return False
    return True


def _prop124(v):
    if not (type(v) is dict):
        return False
    if type(v) is dict:
        for k, x in v.items():
            if k not in _C13 and not _extra125(x):
                return False
    return True


def _extra127(v):
    if not (type(v) is str):
        return False
    return True


def _prop126(v):
    if not (type(v) is dict):
        return False
    if type(v) is dict:
        for k, x in v.items():
            if k not in _C13 and not _extra127(x):
                return False
    return True


def _prop128(v):
    if not (type(v) is str and v in _C129):
        return False
    return True


def _prop131(v):
    if not ((type(v) is int or (type(v) is float and v.is_integer()))):
        return False
    if (type(v) is int or type(v) is float):
        if v < 1:
            return False
        if v > 65535:
            return False
    return True


def _prop133(v):
    if not (type(v) is str):
        return False
    if type(v) is str and (len(v) < 1):
        return False
    return True


def _prop134(v):
    if not _ref32(v):
        return False
    return True


def _prop135(v):
    if not (type(v) is str):
        return False
    return True


def _prop132(v):
    if not (type(v) is dict):
        return False
    if type(v) is dict:
        if 'image' in v and not _prop133(v['image']):
            return False
        if 'resources' in v and not _prop134(v['resources']):
            return False
        if 'priorityClassName' in v and not _prop135(v['priorityClassName']):
            return False
        if not _C79.issuperset(v):
            return False
    return True


def _prop130(v):
    if not (type(v) is dict):
        return False
    if type(v) is dict:
        if 'port' in v and not _prop131(v['port']):
            return False
        if 'master' in v and not _prop132(v['master']):
            return False
        if not _C136.issuperset(v):
            return False
    return True


def _prop138(v):
    if not ((type(v) is int or (type(v) is float and v.is_integer()))):
        return False
    if (type(v) is int or type(v) is float):
        if v < 1:
            return False
        if v > 65535:
            return False
    return True


def _prop140(v):
    if not (type(v) is str):
        return False
    if type(v) is str and (len(v) < 1):
        return False
    return True


def _prop141(v):
    if not _ref32(v):
        return False
    return True


def _prop142(v):
    if not (type(v) is str):
        return False
    return True


def _prop143(v):
    if not ((type(v) is int or (type(v) is float and v.is_integer()))):
        return False
    if (type(v) is int or type(v) is float):
        if v < 1:
            return False
        if v > 2147483647:
            return False
    return True


def _prop139(v):
    if not (type(v) is dict):
        return False
    if type(v) is dict:
        if 'image' in v and not _prop140(v['image']):
            return False
        if 'resources' in v and not _prop141(v['resources']):
            return False
        if 'priorityClassName' in v and not _prop142(v['priorityClassName']):
            return False
        if 'replicas' in v and not _prop143(v['replicas']):
            return False
        if not _C144.issuperset(v):
            return False
    return True


def _prop146(v):
    if not (type(v) is str):
        return False
    if type(v) is str and (len(v) < 1):
        return False
    return True


def _prop147(v):
    if not _ref32(v):
        return False
    return True


def _prop148(v):
    if not (type(v) is str):
        return False
    return True


def _prop145(v):
    if not (type(v) is dict):
        return False
    if type(v) is dict:
        if 'image' in v and not _prop146(v['image']):
            return False
        if 'resources' in v and not _prop147(v['resources']):
            return False
        if 'priorityClassName' in v and not _prop148(v['priorityClassName']):
            return False
        if not _C79.issuperset(v):
            return False
    return True


def _prop150(v):
    if not (type(v) is str):
        return False
    if type(v) is str and (len(v) < 1):
        return False
    return True


def _prop151(v):
    if not _ref32(v):
        return False
    return True


def _prop152(v):
    if not (type(v) is str):
        return False
    return True


def _prop149(v):
    if not (type(v) is dict):
        return False
    if type(v) is dict:
        if 'image' in v and not _prop150(v['image']):
            return False
        if 'resources' in v and not _prop151(v['resources']):
            return False
        if 'priorityClassName' in v and not _prop152(v['priorityClassName']):
            return False
        if not _C79.issuperset(v):
            return False
    return True


def _prop137(v):
    if not (type(v) is dict):
        return False
    if type(v) is dict:
        if 'port' in v and not _prop138(v['port']):
            return False
        if 'ps' in v and not _prop139(v['ps']):
            return False
        if 'chief' in v and not _prop145(v['chief']):
            return False
        if 'evaluator' in v and not _prop149(v['evaluator']):
            return False
        if not _C153.issuperset(v):
            return False
    return True


def _prop155(v):
    if not (type(v) is str):
        return False
    if type(v) is str and (_P71.search(v) is None):
        return False
    return True


def _prop156(v):
    if not (type(v) is str):
        return False
    if type(v) is str and (len(v) < 1):
        return False
    return True


def _prop157(v):
    if not ((type(v) is int or (type(v) is float and v.is_integer()))):
        return False
    if (type(v) is int or type(v) is float):
        if v < 1:
            return False
        if v > 65535:
            return False
    return True


def _prop158(v):
    if not (type(v) is str and v in _C159):
        return False
    return True


def _prop154(v):
    if not (type(v) is dict):
        return False
    if type(v) is dict:
        if 'logDir' in v and not _prop155(v['logDir']):
            return False
        if 'image' in v and not _prop156(v['image']):
            return False
        if 'port' in v and not _prop157(v['port']):
            return False
        if 'serviceType' in v and not _prop158(v['serviceType']):
            return False
        if not _C160.issuperset(v):
            return False
    return True


def _prop162(v):
    if not (type(v) is str):
        return False
    if type(v) is str and (_P71.search(v) is None):
        return False
    return True


def _prop164(v):
    if not (type(v) is str):
        return False
    if type(v) is str and (len(v) < 1):
        return False
    return True


def _prop165(v):
    if not (type(v) is str):
        return False
    if type(v) is str and (len(v) < 1):
        return False
    return True


def _prop166(v):
    if not ((type(v) is int or (type(v) is float and v.is_integer()))):
        return False
    if (type(v) is int or type(v) is float):
        if v < 0:
            return False
        if v > 2147483647:
            return False
    return True


def _prop167(v):
    if not (type(v) is str):
        return False
    if type(v) is str and (len(v) < 1):
        return False
    return True


def _prop168(v):
    if not (type(v) is str):
        return False
    return True


def _prop169(v):
    if not (type(v) is str):
        return False
    return True


def _prop163(v):
    if not (type(v) is dict):
        return False
    if type(v) is dict:
        if 'repository' in v and not _prop164(v['repository']):
            return False
        if 'revision' in v and not _prop165(v['revision']):
            return False
        if 'depth' in v and not _prop166(v['depth']):
            return False
        if 'secret' in v and not _prop167(v['secret']):
            return False
        if 'username' in v and not _prop168(v['username']):
            return False
        if 'password' in v and not _prop169(v['password']):
            return False
        if not _C170.issuperset(v):
            return False
    return True


def _prop172(v):
    if not (type(v) is str):
        return False
    if type(v) is str and (len(v) < 1):
        return False
    return True


def _prop173(v):
    if not (type(v) is str):
        return False
    if type(v) is str and (len(v) < 1):
        return False
    return True


def _prop171(v):
    if not (type(v) is dict):
        return False
    if type(v) is dict:
        if 'source' in v and not _prop172(v['source']):
            return False
        if 'image' in v and not _prop173(v['image']):
            return False
        if not _C174.issuperset(v):
            return False
    return True


def _prop161(v):
    if not (type(v) is dict):
        return False
    if type(v) is dict:
        if 'mountPath' in v and not _prop162(v['mountPath']):
            return False
        if 'git' in v and not _prop163(v['git']):
            return False
        if 'rsync' in v and not _prop171(v['rsync']):
            return False
        if not _C175.issuperset(v):
            return False
    return True


def _any177(v):
    if not (type(v) is str):
        return False
    if type(v) is str and (len(v) < 1):
        return False
    return True


def _any178(v):
    if not ((type(v) is int or type(v) is float)):
        return False
    return True


def _prop176(v):
    if not (_any177(v) or _any178(v)):
        return False
    return True


def _ref20(v):
    if not (type(v) is dict):
        return False
    if type(v) is dict:
        if 'framework' in v and not _prop21(v['framework']):
            return False
        if 'image' in v and not _prop23(v['image']):
            return False
        if 'imagePullPolicy' in v and not _prop24(v['imagePullPolicy']):
            return False
        if 'imagePullSecrets' in v and not _prop26(v['imagePullSecrets']):
            return False
        if 'command' in v and not _prop28(v['command']):
            return False
        if 'workers' in v and not _prop30(v['workers']):
            return False
        if 'resources' in v and not _prop31(v['resources']):
            return False
        if 'slotsPerWorker' in v and not _prop49(v['slotsPerWorker']):
            return False
        if 'priorityClassName' in v and not _prop50(v['priorityClassName']):
            return False
        if 'serviceAccountName' in v and not _prop51(v['serviceAccountName']):
            return False
        if 'nodeSelector' in v and not _prop52(v['nodeSelector']):
            return False
        if 'tolerations' in v and not _prop54(v['tolerations']):
            return False
        if 'mpi' in v and not _prop64(v['mpi']):
            return False
        if 'scheduling' in v and not _prop81(v['scheduling']):
            return False
        if 'runPolicy' in v and not _prop92(v['runPolicy']):
            return False
        if 'env' in v and not _prop100(v['env']):
            return False
        if 'volumes' in v and not _prop112(v['volumes']):
            return False
        if 'workingDir' in v and not _prop123(v['workingDir']):
            return False
        if 'labels' in v and not _prop124(v['labels']):
            return False
        if 'annotations' in v and not _prop126(v['annotations']):
            return False
        if 'restartPolicy' in v and not _prop128(v['restartPolicy']):
            return False
        if 'pytorch' in v and not _prop130(v['pytorch']):
            return False
        if 'tensorflow' in v and not _prop137(v['tensorflow']):
            return False
        if 'tensorboard' in v and not _prop154(v['tensorboard']):
            return False
        if 'code' in v and not _prop161(v['code']):
            return False
        if 'shmSize' in v and not _prop176(v['shmSize']):
            return False
    return True


def _ref182(v):
    if not _ref20(v):
        return False
    if type(v) is dict:
        if not _C183.issuperset(v):
            return False
    return True


def _extra181(v):
    if not _ref182(v):
        return False
    return True


def _names184(v):
    if type(v) is str and (_P185.search(v) is None):
        return False
    return True


def _prop180(v):
    if not (type(v) is dict):
        return False
    if type(v) is dict:
        for k, x in v.items():
            if k not in _C13 and not _extra181(x):
                return False
        if not all(map(_names184, v)):
            return False
    return True


def _ref19(v):
    if not _ref20(v):
        return False
    if type(v) is dict:
        if not _C179.issubset(v):
            return False
        if 'environments' in v and not _prop180(v['environments']):
            return False
        if not _C186.issuperset(v):
            return False
    return True


def _prop18(v):
    if not _ref19(v):
        return False
    return True


def is_valid(v):
    if not (type(v) is dict):
        return False
    if type(v) is dict:
        if not _C1.issubset(v):
            return False
        if 'apiVersion' in v and not _prop2(v['apiVersion']):
            return False
        if 'kind' in v and not _prop4(v['kind']):
            return False
        if 'metadata' in v and not _prop6(v['metadata']):
            return False
        if 'spec' in v and not _prop18(v['spec']):
            return False
        if not _C1.issuperset(v):
            return False
    return True
