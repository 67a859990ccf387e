"""Generated from schemas/mpigen.dev/trainingjob_v1alpha1.json by mpigen/check/schemagen.py: do not edit.

Regenerate with `python -m mpigen.check.schemagen`; a test fails while this file is stale.
"""
# fmt: off
import re as _re

SCHEMA = 'mpigen.dev/trainingjob_v1alpha1.json'
FINGERPRINT = (28134, 3982153216)


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
_P15 = _Pattern('^(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])?$')
_P17 = _Pattern('^([a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*/)?[A-Za-z0-9]([-A-Za-z0-9_.]{0,61}[A-Za-z0-9])?$')
_C21 = frozenset(['annotations', 'labels', 'name', 'namespace'])
_C26 = frozenset(['mpi', 'pytorch', 'tensorflow'])
_C29 = frozenset(['Always', 'IfNotPresent', 'Never'])
_P40 = _Pattern('^[0-9]+$')
_C47 = frozenset(['cpu', 'gpu', 'memory'])
_P52 = _Pattern('^([A-Za-z0-9][-A-Za-z0-9_.]*/)?[A-Za-z0-9]([-A-Za-z0-9_.]*[A-Za-z0-9])?$')
_C62 = frozenset(['Equal', 'Exists'])
_C65 = frozenset(['NoExecute', 'NoSchedule', 'PreferNoSchedule'])
_C67 = frozenset(['effect', 'key', 'operator', 'tolerationSeconds', 'value'])
_C70 = frozenset(['Intel', 'MPICH', 'OpenMPI'])
_P75 = _Pattern('^/')
_C77 = frozenset(['AtStartup', 'WaitForWorkersReady'])
_C83 = frozenset(['image', 'priorityClassName', 'resources'])
_C84 = frozenset(['extraArgs', 'implementation', 'launcher', 'launcherCreationPolicy', 'mpirun', 'runLauncherAsWorker', 'sshAuthMountPath'])
_C87 = frozenset(['kube-batch', 'kueue', 'none', 'scheduler-plugins', 'volcano'])
_C95 = frozenset(['gang', 'gpuTopology', 'minAvailable', 'minResources', 'priorityClass', 'queue', 'scheduleTimeoutSeconds', 'schedulerName'])
_C98 = frozenset(['All', 'None', 'Running'])
_C103 = frozenset(['activeDeadlineSeconds', 'backoffLimit', 'cleanPodPolicy', 'suspend', 'ttlSecondsAfterFinished'])
_C109 = frozenset(['secretKeyRef'])
_C111 = frozenset(['key', 'name'])
_P115 = _Pattern('^[-._a-zA-Z][-._a-zA-Z0-9]*$')
_C118 = frozenset(['mountPath'])
_P125 = _Pattern('^[a-z]([-a-z0-9]*[a-z0-9])?$')
_C126 = frozenset(['claimName', 'hostPath', 'mountPath', 'name', 'readOnly', 'subPath'])
_C135 = frozenset(['Always', 'ExitCode', 'Never', 'OnFailure'])
_C142 = frozenset(['master', 'port'])
_C150 = frozenset(['image', 'priorityClassName', 'replicas', 'resources'])
_C159 = frozenset(['chief', 'evaluator', 'port', 'ps'])
_C165 = frozenset(['ClusterIP', 'NodePort'])
_C166 = frozenset(['image', 'logDir', 'port', 'serviceType'])
_C176 = frozenset(['depth', 'password', 'repository', 'revision', 'secret', 'username'])
_C180 = frozenset(['image', 'source'])
_C181 = frozenset(['git', 'mountPath', 'rsync'])
_C185 = frozenset(['command', 'framework', 'image', 'workers'])
_C189 = frozenset(['annotations', 'code', 'command', 'env', 'framework', 'image', 'imagePullPolicy', 'imagePullSecrets', 'labels', 'mpi', 'nodeSelector', 'priorityClassName', 'pytorch', 'resources', 'restartPolicy', 'runPolicy', 'scheduling', 'serviceAccountName', 'shmSize', 'slotsPerWorker', 'tensorboard', 'tensorflow', 'tolerations', 'volumes', 'workers', 'workingDir'])
_P191 = _Pattern('^[a-z0-9]([-a-z0-9_.]*[a-z0-9])?$')
_C192 = frozenset(['annotations', 'code', 'command', 'env', 'environments', 'framework', 'image', 'imagePullPolicy', 'imagePullSecrets', 'labels', 'mpi', 'nodeSelector', 'priorityClassName', 'pytorch', 'resources', 'restartPolicy', 'runPolicy', 'scheduling', 'serviceAccountName', 'shmSize', 'slotsPerWorker', 'tensorboard', 'tensorflow', 'tolerations', 'volumes', 'workers', 'workingDir'])

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
    if type(v) is str and (len(v) > 63 or _P15.search(v) is None):
        return False
    return True


def _names16(v):
    if type(v) is str and (len(v) > 317 or _P17.search(v) is None):
        return False
    return True


def _prop12(v):
    if not (type(v) is dict):
        return False
    if type(v) is dict:
        for k, x in v.items():
            if k not in _C13 and not _extra14(x):
                return False
        if not all(map(_names16, v)):
            return False
    return True


def _extra19(v):
    if not (type(v) is str):
        return False
    return True


def _names20(v):
    if type(v) is str and (len(v) > 317 or _P17.search(v) is None):
        return False
    return True


def _prop18(v):
    if not (type(v) is dict):
        return False
    if type(v) is dict:
        for k, x in v.items():
            if k not in _C13 and not _extra19(x):
                return False
        if not all(map(_names20, v)):
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
        if 'annotations' in v and not _prop18(v['annotations']):
            return False
        if not _C21.issuperset(v):
            return False
    return True


def _prop25(v):
    if not (type(v) is str and v in _C26):
        return False
    return True


def _prop27(v):
    if not (type(v) is str):
        return False
    if type(v) is str and (len(v) < 1):
        return False
    return True


def _prop28(v):
    if not (type(v) is str and v in _C29):
        return False
    return True


def _item31(v):
    if not (type(v) is str):
        return False
    if type(v) is str and (len(v) < 1):
        return False
    return True


def _prop30(v):
    if not (type(v) is list):
        return False
    if type(v) is list and not all(map(_item31, v)):
        return False
    return True


def _item33(v):
    if not (type(v) is str):
        return False
    return True


def _prop32(v):
    if not (type(v) is list):
        return False
    if type(v) is list and (len(v) < 1):
        return False
    if type(v) is list and not all(map(_item33, v)):
        return False
    return True


def _prop34(v):
    if not ((type(v) is int or (type(v) is float and v.is_integer()))):
        return False
    if (type(v) is int or type(v) is float):
        if v < 0:
            return False
        if v > 2147483647:
            return False
    return True


def _any38(v):
    if not ((type(v) is int or (type(v) is float and v.is_integer()))):
        return False
    if (type(v) is int or type(v) is float):
        if v < 0:
            return False
    return True


def _any39(v):
    if not (type(v) is str):
        return False
    if type(v) is str and (_P40.search(v) is None):
        return False
    return True


def _prop37(v):
    if not (_any38(v) or _any39(v)):
        return False
    return True


def _any42(v):
    if not (type(v) is str):
        return False
    if type(v) is str and (len(v) < 1):
        return False
    return True


def _any43(v):
    if not ((type(v) is int or type(v) is float)):
        return False
    return True


def _prop41(v):
    if not (_any42(v) or _any43(v)):
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


def _prop44(v):
    if not (_any45(v) or _any46(v)):
        return False
    return True


def _any49(v):
    if not (type(v) is str):
        return False
    if type(v) is str and (len(v) < 1):
        return False
    return True


def _any50(v):
    if not ((type(v) is int or type(v) is float)):
        return False
    return True


def _extra48(v):
    if not (_any49(v) or _any50(v)):
        return False
    return True


def _names51(v):
    if type(v) is str and (_P52.search(v) is None):
        return False
    return True


def _ref36(v):
    if not (type(v) is dict):
        return False
    if type(v) is dict:
        if 'gpu' in v and not _prop37(v['gpu']):
            return False
        if 'cpu' in v and not _prop41(v['cpu']):
            return False
        if 'memory' in v and not _prop44(v['memory']):
            return False
        for k, x in v.items():
            if k not in _C47 and not _extra48(x):
                return False
        if not all(map(_names51, v)):
            return False
    return True


def _prop35(v):
    if not _ref36(v):
        return False
    return True


def _prop53(v):
    if not ((type(v) is int or (type(v) is float and v.is_integer()))):
        return False
    if (type(v) is int or type(v) is float):
        if v < 1:
            return False
        if v > 2147483647:
            return False
    return True


def _prop54(v):
    if not (type(v) is str):
        return False
    return True


def _prop55(v):
    if not (type(v) is str):
        return False
    return True


def _extra57(v):
    if not (type(v) is str):
        return False
    return True


def _prop56(v):
    if not (type(v) is dict):
        return False
    if type(v) is dict:
        for k, x in v.items():
            if k not in _C13 and not _extra57(x):
                return False
    return True


def _prop60(v):
    if not (type(v) is str):
        return False
    return True


def _prop61(v):
    if not (type(v) is str and v in _C62):
        return False
    return True


def _prop63(v):
    if not (type(v) is str):
        return False
    return True


def _prop64(v):
    if not (type(v) is str and v in _C65):
        return False
    return True


def _prop66(v):
    if not ((type(v) is int or (type(v) is float and v.is_integer()))):
        return False
    return True


def _item59(v):
    if not (type(v) is dict):
        return False
    if type(v) is dict:
        if 'key' in v and not _prop60(v['key']):
            return False
        if 'operator' in v and not _prop61(v['operator']):
            return False
        if 'value' in v and not _prop63(v['value']):
            return False
        if 'effect' in v and not _prop64(v['effect']):
            return False
        if 'tolerationSeconds' in v and not _prop66(v['tolerationSeconds']):
            return False
        if not _C67.issuperset(v):
            return False
    return True


def _prop58(v):
    if not (type(v) is list):
        return False
    if type(v) is list and not all(map(_item59, v)):
        return False
    return True


def _prop69(v):
    if not (type(v) is str and v in _C70):
        return False
    return True


def _item72(v):
    if not (type(v) is str):
        return False
    return True


def _prop71(v):
    if not (type(v) is list):
        return False
    if type(v) is list and not all(map(_item72, v)):
        return False
    return True


def _prop73(v):
    if not (type(v) is bool):
        return False
    return True


def _prop74(v):
    if not (type(v) is str):
        return False
    if type(v) is str and (_P75.search(v) is None):
        return False
    return True


def _prop76(v):
    if not (type(v) is str and v in _C77):
        return False
    return True


def _prop78(v):
    if not (type(v) is bool):
        return False
    return True


def _prop80(v):
    if not (type(v) is str):
        return False
    if type(v) is str and (len(v) < 1):
        return False
    return True


def _prop81(v):
    if not _ref36(v):
        return False
    return True


def _prop82(v):
    if not (type(v) is str):
        return False
    return True


def _prop79(v):
    if not (type(v) is dict):
        return False
    if type(v) is dict:
        if 'image' in v and not _prop80(v['image']):
            return False
        if 'resources' in v and not _prop81(v['resources']):
            return False
        if 'priorityClassName' in v and not _prop82(v['priorityClassName']):
            return False
        if not _C83.issuperset(v):
            return False
    return True


def _prop68(v):
    if not (type(v) is dict):
        return False
    if type(v) is dict:
        if 'implementation' in v and not _prop69(v['implementation']):
            return False
        if 'extraArgs' in v and not _prop71(v['extraArgs']):
            return False
        if 'mpirun' in v and not _prop73(v['mpirun']):
            return False
        if 'sshAuthMountPath' in v and not _prop74(v['sshAuthMountPath']):
            return False
        if 'launcherCreationPolicy' in v and not _prop76(v['launcherCreationPolicy']):
            return False
        if 'runLauncherAsWorker' in v and not _prop78(v['runLauncherAsWorker']):
            return False
        if 'launcher' in v and not _prop79(v['launcher']):
            return False
        if not _C84.issuperset(v):
            return False
    return True


def _prop86(v):
    if not (type(v) is str and v in _C87):
        return False
    return True


def _prop88(v):
    if not (type(v) is str):
        return False
    if type(v) is str and (len(v) < 1):
        return False
    return True


def _prop89(v):
    if not (type(v) is str):
        return False
    return True


def _prop90(v):
    if not (type(v) is str):
        return False
    return True


def _prop91(v):
    if not ((type(v) is int or (type(v) is float and v.is_integer()))):
        return False
    if (type(v) is int or type(v) is float):
        if v < 0:
            return False
        if v > 2147483647:
            return False
    return True


def _prop92(v):
    if not _ref36(v):
        return False
    return True


def _prop93(v):
    if not ((type(v) is int or (type(v) is float and v.is_integer()))):
        return False
    if (type(v) is int or type(v) is float):
        if v < 0:
            return False
        if v > 2147483647:
            return False
    return True


def _prop94(v):
    if not (type(v) is bool):
        return False
    return True


def _prop85(v):
    if not (type(v) is dict):
        return False
    if type(v) is dict:
        if 'gang' in v and not _prop86(v['gang']):
            return False
        if 'schedulerName' in v and not _prop88(v['schedulerName']):
            return False
        if 'queue' in v and not _prop89(v['queue']):
            return False
        if 'priorityClass' in v and not _prop90(v['priorityClass']):
            return False
        if 'minAvailable' in v and not _prop91(v['minAvailable']):
            return False
        if 'minResources' in v and not _prop92(v['minResources']):
            return False
        if 'scheduleTimeoutSeconds' in v and not _prop93(v['scheduleTimeoutSeconds']):
            return False
        if 'gpuTopology' in v and not _prop94(v['gpuTopology']):
            return False
        if not _C95.issuperset(v):
            return False
    return True


def _prop97(v):
    if not (type(v) is str and v in _C98):
        return False
    return True


def _prop99(v):
    if not ((type(v) is int or (type(v) is float and v.is_integer()))):
        return False
    if (type(v) is int or type(v) is float):
        if v < 0:
            return False
        if v > 2147483647:
            return False
    return True


def _prop100(v):
    if not ((type(v) is int or (type(v) is float and v.is_integer()))):
        return False
    if (type(v) is int or type(v) is float):
        if v < 0:
            return False
        if v > 9223372036854775807:
            return False
    return True


def _prop101(v):
    if not ((type(v) is int or (type(v) is float and v.is_integer()))):
        return False
    if (type(v) is int or type(v) is float):
        if v < 0:
            return False
        if v > 2147483647:
            return False
    return True


def _prop102(v):
    if not (type(v) is bool):
        return False
    return True


def _prop96(v):
    if not (type(v) is dict):
        return False
    if type(v) is dict:
        if 'cleanPodPolicy' in v and not _prop97(v['cleanPodPolicy']):
            return False
        if 'ttlSecondsAfterFinished' in v and not _prop99(v['ttlSecondsAfterFinished']):
            return False
        if 'activeDeadlineSeconds' in v and not _prop100(v['activeDeadlineSeconds']):
            return False
        if 'backoffLimit' in v and not _prop101(v['backoffLimit']):
            return False
        if 'suspend' in v and not _prop102(v['suspend']):
            return False
        if not _C103.issuperset(v):
            return False
    return True


def _any106(v):
    if not (type(v) is str):
        return False
    return True


def _any107(v):
    if not ((type(v) is int or (type(v) is float and v.is_integer()))):
        return False
    return True


def _prop112(v):
    if not (type(v) is str):
        return False
    if type(v) is str and (len(v) < 1):
        return False
    return True


def _prop113(v):
    if not (type(v) is str):
        return False
    if type(v) is str and (len(v) < 1):
        return False
    return True


def _prop110(v):
    if not (type(v) is dict):
        return False
    if type(v) is dict:
        if not _C111.issubset(v):
            return False
        if 'name' in v and not _prop112(v['name']):
            return False
        if 'key' in v and not _prop113(v['key']):
            return False
        if not _C111.issuperset(v):
            return False
    return True


def _any108(v):
    if not (type(v) is dict):
        return False
    if type(v) is dict:
        if not _C109.issubset(v):
            return False
        if 'secretKeyRef' in v and not _prop110(v['secretKeyRef']):
            return False
        if not _C109.issuperset(v):
            return False
    return True


def _extra105(v):
    if not (_any106(v) or _any107(v) or _any108(v)):
        return False
    return True


def _names114(v):
    if type(v) is str and (_P115.search(v) is None):
        return False
    return True


def _prop104(v):
    if not (type(v) is dict):
        return False
    if type(v) is dict:
        for k, x in v.items():
            if k not in _C13 and not _extra105(x):
                return False
        if not all(map(_names114, v)):
            return False
    return True


def _prop119(v):
    if not (type(v) is str):
        return False
    if type(v) is str and (len(v) < 1):
        return False
    return True


def _prop120(v):
    if not (type(v) is str):
        return False
    if type(v) is str and (_P75.search(v) is None):
        return False
    return True


def _prop121(v):
    if not (type(v) is str):
        return False
    if type(v) is str and (_P75.search(v) is None):
        return False
    return True


def _prop122(v):
    if not (type(v) is bool):
        return False
    return True


def _prop123(v):
    if not (type(v) is str):
        return False
    return True


def _prop124(v):
    if not (type(v) is str):
        return False
    if type(v) is str and (len(v) > 63 or _P125.search(v) is None):
        return False
    return True


def _item117(v):
    if not (type(v) is dict):
        return False
    if type(v) is dict:
        if not _C118.issubset(v):
            return False
        if 'claimName' in v and not _prop119(v['claimName']):
            return False
        if 'hostPath' in v and not _prop120(v['hostPath']):
            return False
        if 'mountPath' in v and not _prop121(v['mountPath']):
            return False
        if 'readOnly' in v and not _prop122(v['readOnly']):
            return False
        if 'subPath' in v and not _prop123(v['subPath']):
            return False
        if 'name' in v and not _prop124(v['name']):
            return False
        if not _C126.issuperset(v):
            return False
    return True


def _prop116(v):
    if not (type(v) is list):
        return False
    if type(v) is list and not all(map(_item117, v)):
        return False
    return True


def _prop127(v):
    if not (type(v) is str):
        return False
    if type(v) is str and (_P75.search(v) is None):
        return False
    return True


def _extra129(v):
    if not (type(v) is str):
        return False
    if type(v) is str and (len(v) > 63 or _P15.search(v) is None):
        return False
    return True


def _names130(v):
    if type(v) is str and (len(v) > 317 or _P17.search(v) is None):
        return False
    return True


def _prop128(v):
    if not (type(v) is dict):
        return False
    if type(v) is dict:
        for k, x in v.items():
            if k not in _C13 and not _extra129(x):
                return False
        if not all(map(_names130, v)):
            return False
    return True


def _extra132(v):
    if not (type(v) is str):
        return False
    return True


def _names133(v):
    if type(v) is str and (len(v) > 317 or _P17.search(v) is None):
        return False
    return True


def _prop131(v):
    if not (type(v) is dict):
        return False
    if type(v) is dict:
        for k, x in v.items():
            if k not in _C13 and not _extra132(x):
                return False
        if not all(map(_names133, v)):
            return False
    return True


def _prop134(v):
    if not (type(v) is str and v in _C135):
        return False
    return True


def _prop137(v):
    if not ((type(v) is int or (type(v) is float and v.is_integer()))):
        return False
    if (type(v) is int or type(v) is float):
        if v < 1:
            return False
        if v > 65535:
            return False
    return True


def _prop139(v):
    if not (type(v) is str):
        return False
    if type(v) is str and (len(v) < 1):
        return False
    return True


def _prop140(v):
    if not _ref36(v):
        return False
    return True


def _prop141(v):
    if not (type(v) is str):
        return False
    return True


def _prop138(v):
    if not (type(v) is dict):
        return False
    if type(v) is dict:
        if 'image' in v and not _prop139(v['image']):
            return False
        if 'resources' in v and not _prop140(v['resources']):
            return False
        if 'priorityClassName' in v and not _prop141(v['priorityClassName']):
            return False
        if not _C83.issuperset(v):
            return False
    return True


def _prop136(v):
    if not (type(v) is dict):
        return False
    if type(v) is dict:
        if 'port' in v and not _prop137(v['port']):
            return False
        if 'master' in v and not _prop138(v['master']):
            return False
        if not _C142.issuperset(v):
            return False
    return True


def _prop144(v):
    if not ((type(v) is int or (type(v) is float and v.is_integer()))):
        return False
    if (type(v) is int or type(v) is float):
        if v < 1:
            return False
        if v > 65535:
            return False
    return True


def _prop146(v):
    if not (type(v) is str):
        return False
    if type(v) is str and (len(v) < 1):
        return False
    return True


def _prop147(v):
    if not _ref36(v):
        return False
    return True


def _prop148(v):
    if not (type(v) is str):
        return False
    return True


def _prop149(v):
    if not ((type(v) is int or (type(v) is float and v.is_integer()))):
        return False
    if (type(v) is int or type(v) is float):
        if v < 1:
            return False
        if v > 2147483647:
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
        if 'replicas' in v and not _prop149(v['replicas']):
            return False
        if not _C150.issuperset(v):
            return False
    return True


def _prop152(v):
    if not (type(v) is str):
        return False
    if type(v) is str and (len(v) < 1):
        return False
    return True


def _prop153(v):
    if not _ref36(v):
        return False
    return True


def _prop154(v):
    if not (type(v) is str):
        return False
    return True


def _prop151(v):
    if not (type(v) is dict):
        return False
    if type(v) is dict:
        if 'image' in v and not _prop152(v['image']):
            return False
        if 'resources' in v and not _prop153(v['resources']):
            return False
        if 'priorityClassName' in v and not _prop154(v['priorityClassName']):
            return False
        if not _C83.issuperset(v):
            return False
    return True


def _prop156(v):
    if not (type(v) is str):
        return False
    if type(v) is str and (len(v) < 1):
        return False
    return True


def _prop157(v):
    if not _ref36(v):
        return False
    return True


def _prop158(v):
    if not (type(v) is str):
        return False
    return True


def _prop155(v):
    if not (type(v) is dict):
        return False
    if type(v) is dict:
        if 'image' in v and not _prop156(v['image']):
            return False
        if 'resources' in v and not _prop157(v['resources']):
            return False
        if 'priorityClassName' in v and not _prop158(v['priorityClassName']):
            return False
        if not _C83.issuperset(v):
            return False
    return True


def _prop143(v):
    if not (type(v) is dict):
        return False
    if type(v) is dict:
        if 'port' in v and not _prop144(v['port']):
            return False
        if 'ps' in v and not _prop145(v['ps']):
            return False
        if 'chief' in v and not _prop151(v['chief']):
            return False
        if 'evaluator' in v and not _prop155(v['evaluator']):
            return False
        if not _C159.issuperset(v):
            return False
    return True


def _prop161(v):
    if not (type(v) is str):
        return False
    if type(v) is str and (_P75.search(v) is None):
        return False
    return True


def _prop162(v):
    if not (type(v) is str):
        return False
    if type(v) is str and (len(v) < 1):
        return False
    return True


def _prop163(v):
    if not ((type(v) is int or (type(v) is float and v.is_integer()))):
        return False
    if (type(v) is int or type(v) is float):
        if v < 1:
            return False
        if v > 65535:
            return False
    return True


def _prop164(v):
    if not (type(v) is str and v in _C165):
        return False
    return True


def _prop160(v):
    if not (type(v) is dict):
        return False
    if type(v) is dict:
        if 'logDir' in v and not _prop161(v['logDir']):
            return False
        if 'image' in v and not _prop162(v['image']):
            return False
        if 'port' in v and not _prop163(v['port']):
            return False
        if 'serviceType' in v and not _prop164(v['serviceType']):
            return False
        if not _C166.issuperset(v):
            return False
    return True


def _prop168(v):
    if not (type(v) is str):
        return False
    if type(v) is str and (_P75.search(v) is None):
        return False
    return True


def _prop170(v):
    if not (type(v) is str):
        return False
    if type(v) is str and (len(v) < 1):
        return False
    return True


def _prop171(v):
    if not (type(v) is str):
        return False
    if type(v) is str and (len(v) < 1):
        return False
    return True


def _prop172(v):
    if not ((type(v) is int or (type(v) is float and v.is_integer()))):
        return False
    if (type(v) is int or type(v) is float):
        if v < 0:
            return False
        if v > 2147483647:
            return False
    return True


def _prop173(v):
    if not (type(v) is str):
        return False
    if type(v) is str and (len(v) < 1):
        return False
    return True


def _prop174(v):
    if not (type(v) is str):
        return False
    return True


def _prop175(v):
    if not (type(v) is str):
        return False
    return True


def _prop169(v):
    if not (type(v) is dict):
        return False
    if type(v) is dict:
        if 'repository' in v and not _prop170(v['repository']):
            return False
        if 'revision' in v and not _prop171(v['revision']):
            return False
        if 'depth' in v and not _prop172(v['depth']):
            return False
        if 'secret' in v and not _prop173(v['secret']):
            return False
        if 'username' in v and not _prop174(v['username']):
            return False
        if 'password' in v and not _prop175(v['password']):
            return False
        if not _C176.issuperset(v):
            return False
    return True


def _prop178(v):
    if not (type(v) is str):
        return False
    if type(v) is str and (len(v) < 1):
        return False
    return True


def _prop179(v):
    if not (type(v) is str):
        return False
    if type(v) is str and (len(v) < 1):
        return False
    return True


def _prop177(v):
    if not (type(v) is dict):
        return False
    if type(v) is dict:
        if 'source' in v and not _prop178(v['source']):
            return False
        if 'image' in v and not _prop179(v['image']):
            return False
        if not _C180.issuperset(v):
            return False
    return True


def _prop167(v):
    if not (type(v) is dict):
        return False
    if type(v) is dict:
        if 'mountPath' in v and not _prop168(v['mountPath']):
            return False
        if 'git' in v and not _prop169(v['git']):
            return False
        if 'rsync' in v and not _prop177(v['rsync']):
            return False
        if not _C181.issuperset(v):
            return False
    return True


def _any183(v):
    if not (type(v) is str):
        return False
    if type(v) is str and (len(v) < 1):
        return False
    return True


def _any184(v):
    if not ((type(v) is int or type(v) is float)):
        return False
    return True


def _prop182(v):
    if not (_any183(v) or _any184(v)):
        return False
    return True


def _ref24(v):
    if not (type(v) is dict):
        return False
    if type(v) is dict:
        if 'framework' in v and not _prop25(v['framework']):
            return False
        if 'image' in v and not _prop27(v['image']):
            return False
        if 'imagePullPolicy' in v and not _prop28(v['imagePullPolicy']):
            return False
        if 'imagePullSecrets' in v and not _prop30(v['imagePullSecrets']):
            return False
        if 'command' in v and not _prop32(v['command']):
            return False
        if 'workers' in v and not _prop34(v['workers']):
            return False
        if 'resources' in v and not _prop35(v['resources']):
            return False
        if 'slotsPerWorker' in v and not _prop53(v['slotsPerWorker']):
            return False
        if 'priorityClassName' in v and not _prop54(v['priorityClassName']):
            return False
        if 'serviceAccountName' in v and not _prop55(v['serviceAccountName']):
            return False
        if 'nodeSelector' in v and not _prop56(v['nodeSelector']):
            return False
        if 'tolerations' in v and not _prop58(v['tolerations']):
            return False
        if 'mpi' in v and not _prop68(v['mpi']):
            return False
        if 'scheduling' in v and not _prop85(v['scheduling']):
            return False
        if 'runPolicy' in v and not _prop96(v['runPolicy']):
            return False
        if 'env' in v and not _prop104(v['env']):
            return False
        if 'volumes' in v and not _prop116(v['volumes']):
            return False
        if 'workingDir' in v and not _prop127(v['workingDir']):
            return False
        if 'labels' in v and not _prop128(v['labels']):
            return False
        if 'annotations' in v and not _prop131(v['annotations']):
            return False
        if 'restartPolicy' in v and not _prop134(v['restartPolicy']):
            return False
        if 'pytorch' in v and not _prop136(v['pytorch']):
            return False
        if 'tensorflow' in v and not _prop143(v['tensorflow']):
            return False
        if 'tensorboard' in v and not _prop160(v['tensorboard']):
            return False
        if 'code' in v and not _prop167(v['code']):
            return False
        if 'shmSize' in v and not _prop182(v['shmSize']):
            return False
    return True


def _ref188(v):
    if not _ref24(v):
        return False
    if type(v) is dict:
        if not _C189.issuperset(v):
            return False
    return True


def _extra187(v):
    if not _ref188(v):
        return False
    return True


def _names190(v):
    if type(v) is str and (_P191.search(v) is None):
        return False
    return True


def _prop186(v):
    if not (type(v) is dict):
        return False
    if type(v) is dict:
        for k, x in v.items():
            if k not in _C13 and not _extra187(x):
                return False
        if not all(map(_names190, v)):
            return False
    return True


def _ref23(v):
    if not _ref24(v):
        return False
    if type(v) is dict:
        if not _C185.issubset(v):
            return False
        if 'environments' in v and not _prop186(v['environments']):
            return False
        if not _C192.issuperset(v):
            return False
    return True


def _prop22(v):
    if not _ref23(v):
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
        if 'spec' in v and not _prop22(v['spec']):
            return False
        if not _C1.issuperset(v):
            return False
    return True
