-- Health of a scheduler-plugins PodGroup (scheduling.x-k8s.io/v1alpha1), the gang of the
-- Coscheduling plugin, as scheduler-plugins v0.33.5 reports it.
--
-- Derived from sigs.k8s.io/scheduler-plugins at v0.33.5 (commit c595039ebc2ed180388b89063c6cb05bc6d03562):
--   apis/scheduling/v1alpha1/types.go: status.phase is one of Pending, Running, Scheduling,
--     Unknown, Finished, Failed; status.running, succeeded and failed count the group's pods;
--     the group has no conditions;
--   pkg/controllers/podgroup_controller.go (Reconcile): Pending while fewer than minMember pods
--     exist; Scheduling while fewer than minMember of them run or succeeded (Coscheduling holds
--     the gang's pods at Permit until minMember of them can be placed: the gang-held state);
--     Running once minMember run or succeeded; Failed once a pod failed and minMember pods ran,
--     succeeded or failed; Finished once minMember succeeded. Finished and Failed are final. The
--     controller never sets Unknown.
--
-- Only Lua's base and table libraries are used, so the script runs as an argocd-cm health check
-- without resource.customizations.useOpenLibs.

local status = obj.status or {}
local phase = status.phase or ""
local minMember = (obj.spec or {}).minMember or 0
local running = status.running or 0
local succeeded = status.succeeded or 0
local failed = status.failed or 0

if phase == "Running" then
  return {status = "Healthy", message = "Running: " .. running .. " running, " .. succeeded .. " succeeded (minMember " .. minMember .. ")"}
end
if phase == "Finished" then
  return {status = "Healthy", message = "Finished: " .. succeeded .. " pods succeeded (minMember " .. minMember .. ")"}
end
if phase == "Failed" then
  return {status = "Degraded", message = "Failed: " .. failed .. " pods failed (minMember " .. minMember .. ")"}
end
if phase == "Unknown" then
  return {status = "Degraded", message = "Unknown: some of the gang's pods are scheduled, the others cannot be"}
end
if phase == "Scheduling" then
  return {status = "Progressing", message = "Scheduling: " .. (running + succeeded) .. " of minMember " .. minMember .. " pods running or succeeded; Coscheduling binds the gang's pods only when all " .. minMember .. " can be placed"}
end
if phase == "Pending" then
  return {status = "Progressing", message = "Pending: fewer than minMember (" .. minMember .. ") pods exist"}
end
return {status = "Progressing", message = "Waiting for the scheduler-plugins PodGroup controller"}
